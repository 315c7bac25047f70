"""PostgreSQL for the test suite: Django's backend with a flush that deletes instead of truncating."""
