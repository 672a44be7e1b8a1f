# librktlcs (src/lib/librktlcs.h, docs/library.md): shared and static, one public header, a
# pkg-config file, a CMake package (rktlcs::rktlcs) and the Python module (rktlcs.py). The
# algo and core layers go inside it; their symbols stay hidden in the shared library.
set_target_properties(rk_core rk_algo PROPERTIES POSITION_INDEPENDENT_CODE ON)
set(RKL_SRC ${PROJECT_SOURCE_DIR}/src/lib/lib_pair.c ${PROJECT_SOURCE_DIR}/src/lib/lib_sets.c ${PROJECT_SOURCE_DIR}/src/lib/lib_gpu.c)
# the GPU backend where built: the gpu layer's objects go in too, with the CUDA runtime linked
# statically (no separable compilation, so no device link step)
set(RKL_GPU_OBJ)
if(RKTLCS_HAVE_CUDA)
  set_target_properties(rk_gpu PROPERTIES POSITION_INDEPENDENT_CODE ON)
  set(RKL_GPU_OBJ $<TARGET_OBJECTS:rk_gpu>)
endif()
add_library(rktlcs_shared SHARED ${RKL_SRC})
add_library(rktlcs_static STATIC ${RKL_SRC} $<TARGET_OBJECTS:rk_algo> $<TARGET_OBJECTS:rk_core> ${RKL_GPU_OBJ})
foreach(t rktlcs_shared rktlcs_static)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${t} PRIVATE ${RK_WARN})
  set_target_properties(${t} PROPERTIES OUTPUT_NAME rktlcs PUBLIC_HEADER ${PROJECT_SOURCE_DIR}/src/lib/librktlcs.h)
  target_include_directories(${t} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
target_link_libraries(rktlcs_shared PRIVATE rk_gpu rk_algo rk_core OpenMP::OpenMP_C)
target_link_options(rktlcs_shared PRIVATE -Wl,--exclude-libs,ALL)
set_target_properties(rktlcs_shared PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0)
target_link_libraries(rktlcs_static PUBLIC OpenMP::OpenMP_C m)
set(RKL_PC_PRIVATE "-fopenmp -lm")
set(RKL_DEP "find_dependency(OpenMP)")
if(RKTLCS_HAVE_CUDA)
  # the static library's users link the CUDA runtime (and the C++ runtime of its host code)
  target_link_libraries(rktlcs_static PUBLIC CUDA::cudart_static stdc++)
  set(RKL_PC_PRIVATE "${RKL_PC_PRIVATE} -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread -lstdc++")
  set(RKL_DEP "${RKL_DEP}\nfind_dependency(CUDAToolkit)")
endif()
target_include_directories(rktlcs_static PRIVATE $<TARGET_PROPERTY:rk_algo,INCLUDE_DIRECTORIES>)
install(TARGETS rktlcs_shared rktlcs_static EXPORT rktlcsTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT rktlcsTargets NAMESPACE rktlcs:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rktlcs)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/rktlcsConfig.cmake
  "include(CMakeFindDependencyMacro)\n${RKL_DEP}\ninclude(\"\${CMAKE_CURRENT_LIST_DIR}/rktlcsTargets.cmake\")\n"
  "if(NOT TARGET rktlcs::rktlcs)\n  add_library(rktlcs::rktlcs ALIAS rktlcs::rktlcs_shared)\nendif()\n")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/rktlcsConfig.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rktlcs)
# pkg-config and the Python module name the install's own paths (--prefix included)
install(CODE "
  set(p \"\${CMAKE_INSTALL_PREFIX}\")
  file(WRITE \"\$ENV{DESTDIR}\${p}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/rktlcs.pc\"
\"prefix=\${p}\nlibdir=\${p}/${CMAKE_INSTALL_LIBDIR}\nincludedir=\${p}/${CMAKE_INSTALL_INCLUDEDIR}\n\nName: rktlcs\nDescription: Levenshtein, LCS, hamming and Rkt-LCS of sequences (the rktlcs command's kernels)\nVersion: ${PROJECT_VERSION}\nLibs: -L\\\${libdir} -Wl,-rpath,\\\${libdir} -lrktlcs\nLibs.private: ${RKL_PC_PRIVATE}\nCflags: -I\\\${includedir}\n\")
  message(STATUS \"Installing: \${p}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/rktlcs.pc\")")
install(FILES ${PROJECT_SOURCE_DIR}/src/lib/rktlcs.py DESTINATION lib/python3/dist-packages)
