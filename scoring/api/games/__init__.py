"""The live games' REST API under /api/v1/games/ and /api/v1/players/: views, serializers, urls."""
