# core: errors, types, warnings, device buffers (the CUDA half is in kernels/core).
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/core/log.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/core/device_buffer.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/core/parallel_copy.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/core/binary_file.cpp)
