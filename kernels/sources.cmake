# CUDA sources of libpolydg, compiled only when POLYDG_CUDA is ON.
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/core/device.cu)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/sparse/device_block_pattern.cu)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/sparse/device_dense_block_matrix.cu)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/sparse/device_ghost_column_blocks.cu)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/hyperbolic/device_element_halo.cu)
# DeviceAssembler: its coefficient-independent part, then the kernels for the library's own
# coefficient types, one translation unit each so that they compile in parallel.
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/kernels/dg/device_assembler.cu
                              ${PROJECT_SOURCE_DIR}/kernels/dg/assemble_point_coefficients_2d.cu
                              ${PROJECT_SOURCE_DIR}/kernels/dg/assemble_point_coefficients_3d.cu
                              ${PROJECT_SOURCE_DIR}/kernels/dg/assemble_space_time_point_coefficients.cu)
