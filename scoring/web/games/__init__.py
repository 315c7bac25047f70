"""Live games' pages under /games/: views, forms, display, urls; writes via scoring.services."""
