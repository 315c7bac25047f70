"""A gunicorn logger that masks game link tokens in the access log.

gunicorn's access log writes the request line, the path and the Referer as they came: for a game's
edit link that is the key to change its scores. Use this class, with any --access-logformat:

    gunicorn golfclub.wsgi --logger-class golfclub.gunicorn_logging.TokenMaskingLogger \\
        --access-logfile - --access-logformat '%(h)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" %(M)sms'

Every atom that can carry a URL (%(r)s, %(U)s, %(q)s, %(f)s and any {header}i) is masked:
/games/e/<token>/holes/new/.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from golfclub.log_filters import mask_tokens


class TokenMaskingLogger(Logger):
    """gunicorn's logger, with tokens masked in every string atom of the access log."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        """gunicorn's atoms, each string one masked."""
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: mask_tokens(value) if isinstance(value, str) else value for key, value in atoms.items()}
