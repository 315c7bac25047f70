"""The stateless "Score a grid" page at /score/: views, forms, results, urls (nothing is saved)."""
