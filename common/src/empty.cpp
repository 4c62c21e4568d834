// Intentionally empty: a chapter without CUDA files still needs one source in its kernel library.
