# CUDA sources of libpolydg, compiled only when POLYDG_CUDA is ON.
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/core/device.cu)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/sparse/device_block_pattern.cu)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/sparse/device_dense_block_matrix.cu)
