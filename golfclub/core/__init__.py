"""The plumbing every app shares, below them all: it imports no app (`scoring`, `tournaments`) and
no part of the project above it (settings, URLs, middleware, accounts), so each can use it
without a cycle. The layering is a contract checked by import-linter (`make test`, pyproject.toml).

- `limits`: every limit on what a user may enter (pure Python: the rules engine reads it too);
- `inputs`: what text, whole numbers and link tokens are accepted, and `InputError`;
- `names`: player names cleaned and compared;
- `parsers` and `input_fields`: the API's bounded JSON parsers and strict serializer fields;
- `converters`: the URL converters (`<token:>`, `<number:>`, `<id:>`);
- `client_ip` and `rate_limits`: rate limits on a shared cache, keyed by client;
- `errors`: the site-wide error answers (JSON under /api/, a page elsewhere).
"""
