# petsc: AIJ export, KSP helpers, PETSc error handling.
target_sources(polydg PRIVATE)
