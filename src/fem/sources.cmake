target_sources(polydg PRIVATE)
