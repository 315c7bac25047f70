"""The methods a page takes, named once for every app's access call (`methods=`): a page asked with
another method is answered 405 (`golfclub.core.errors.MethodNotTaken`), after its access call."""

#: A page that is only read.
READ_METHODS = ("GET", "HEAD")
#: A page with a form: shown, and posted to.
FORM_METHODS = ("GET", "HEAD", "POST")
#: A button's target: posted to only.
POST_ONLY = ("POST",)
