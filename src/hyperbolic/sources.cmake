# hyperbolic: the explicit path for conservation laws (headers in include/polydg/hyperbolic).
