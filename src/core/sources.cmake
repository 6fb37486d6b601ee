# core: errors, types, warnings, device buffers (the CUDA half is in kernels/core).
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/core/log.cpp)
