# CUDA build of the GPU backend (included from the top-level CMakeLists.txt
# when nvcc is found).
find_package(CUDAToolkit REQUIRED)

# The one list of device floating-point flags every kernel gets: no FMA
# contraction, IEEE division and square root, no flush-to-zero. A twin must
# reproduce the host's correctly rounded arithmetic (docs/architecture.md).
set(TWINVMAF_CUDA_STRICT_FLAGS --fmad=false -prec-div=true -prec-sqrt=true -ftz=false)

file(GLOB TWINVMAF_FEATURE_GPU_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/features/*/*.cu)
target_sources(twinvmaf_core PRIVATE
  src/gpu/gpu_engine.cu
  src/gpu/surface_copy.cu
  src/gpu/cuda_driver.cpp
  src/gpu/twin_registry.cu
  ${TWINVMAF_FEATURE_GPU_SOURCES})
# Host code in the .cu files includes the C++20 core headers. CMake 3.25 does
# not know nvcc's C++20 flag (nvcc 12+ has it), so tell it.
set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
set_target_properties(twinvmaf_core PROPERTIES CUDA_STANDARD 20)
target_compile_options(twinvmaf_core PRIVATE
  "$<$<COMPILE_LANGUAGE:CUDA>:${TWINVMAF_CUDA_STRICT_FLAGS};-Xcompiler=-ffp-contract=off>")

# The PTX nvcc makes on its way to the library's objects is kept
# (TWINVMAF_KERNEL_PTX_DIR/<source name>.ptx): tests/CMakeLists.txt checks
# it for fused multiply-adds and device libm, so what is checked is the code
# that ships, and no second compile of every kernel source to PTX is needed
# (it was about 85 s of one core in CI). nvcc names what it keeps after the
# source alone, so every kernel source needs a name of its own. Its other
# intermediates (preprocessed sources, about 10 MB a source) are deleted
# after the build.
set(TWINVMAF_KERNEL_PTX_DIR ${PROJECT_BINARY_DIR}/kernel_ptx)
file(MAKE_DIRECTORY ${TWINVMAF_KERNEL_PTX_DIR})
get_target_property(twinvmaf_core_sources twinvmaf_core SOURCES)
list(FILTER twinvmaf_core_sources INCLUDE REGEX "\\.cu$")
set(TWINVMAF_KERNEL_PTX_FILES "")
foreach(source ${twinvmaf_core_sources})
  get_filename_component(name ${source} NAME_WE)
  if(${TWINVMAF_KERNEL_PTX_DIR}/${name}.ptx IN_LIST TWINVMAF_KERNEL_PTX_FILES)
    message(FATAL_ERROR "two kernel sources are named ${name}.cu: nvcc would keep one PTX file for both")
  endif()
  list(APPEND TWINVMAF_KERNEL_PTX_FILES ${TWINVMAF_KERNEL_PTX_DIR}/${name}.ptx)
endforeach()
target_compile_options(twinvmaf_core PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:--keep;--keep-dir=${TWINVMAF_KERNEL_PTX_DIR}>")
add_custom_command(TARGET twinvmaf_core POST_BUILD
  COMMAND find ${TWINVMAF_KERNEL_PTX_DIR} -type f ! -name *.ptx -delete
  VERBATIM)
target_compile_definitions(twinvmaf_core PUBLIC TWINVMAF_HAVE_CUDA=1)
target_link_libraries(twinvmaf_core PUBLIC CUDA::cudart_static)

# Feeding benchmark (GB/s of reading, pinning and uploading large frames);
# prints figures on a GPU machine, see bench/run_gpu_benchmarks.py.
if(TWINVMAF_BUILD_BENCH OR TWINVMAF_GPU_BENCH)
  add_executable(bench_gpu_upload bench/bench_gpu_upload.cu)
  set_target_properties(bench_gpu_upload PROPERTIES CUDA_STANDARD 20)
  target_include_directories(bench_gpu_upload PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(bench_gpu_upload PRIVATE CUDA::cudart_static)
endif()
