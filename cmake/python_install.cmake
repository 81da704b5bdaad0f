# make install's part for the Python package (python/CMakeLists.txt sets the
# TWINVMAF_* variables): the package goes where the interpreter it is for
# finds it, and twinvmaf-report runs with that interpreter.
#
# The interpreter: $TWINVMAF_PYTHON (`make install PYTHON=...`), else the one
# the module was built for. The place: TWINVMAF_PYTHON_PACKAGE_DIR under
# PREFIX when given; a venv's own site-packages (nothing under PREFIX is on
# a venv's sys.path); else PREFIX/lib/python3.X/dist-packages for Debian's
# Python (on its sys.path for PREFIX=/usr/local), site-packages for others.

set(python "$ENV{TWINVMAF_PYTHON}")
if(python STREQUAL "")
  set(python "${TWINVMAF_BUILT_PYTHON}")
endif()
execute_process(
  COMMAND "${python}" -c [=[
import os, sys, sysconfig
prefix, chosen = sys.argv[1], sys.argv[2]
version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
if chosen:
    where = os.path.join(prefix, chosen)
elif sys.prefix != sys.base_prefix:
    where = sysconfig.get_path("platlib")
else:
    kind = "dist-packages" if any(p.endswith("dist-packages") for p in sys.path) else "site-packages"
    where = os.path.join(prefix, "lib", version, kind)
on_path = os.path.realpath(where) in [os.path.realpath(p) for p in sys.path if p]
print(where, sysconfig.get_config_var("EXT_SUFFIX"), "yes" if on_path else "no", sys.version.split()[0], sep="\n")
]=] "${CMAKE_INSTALL_PREFIX}" "${TWINVMAF_PYTHON_PACKAGE_DIR}"
  RESULT_VARIABLE status OUTPUT_VARIABLE answer ERROR_VARIABLE problem OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "twinvmaf: cannot run the Python interpreter \"${python}\" to install the package for it: "
                      "${status} ${problem}")
endif()
string(REPLACE "\n" ";" answer "${answer}")
list(GET answer 0 package_root)
list(GET answer 1 suffix)
list(GET answer 2 on_path)
list(GET answer 3 version)

# The extension module loads only in the Python version (and ABI) it was
# built for: refuse another rather than install a package that cannot import.
get_filename_component(module_name "${TWINVMAF_MODULE}" NAME)
if(NOT module_name STREQUAL "_twinvmaf${suffix}")
  message(FATAL_ERROR "twinvmaf: the Python module ${module_name} was built for ${TWINVMAF_BUILT_PYTHON}; "
                      "${python} (Python ${version}) needs _twinvmaf${suffix}. `make install PYTHON=${python}` "
                      "builds it for that interpreter (or configure with -DPython_EXECUTABLE=${python}).")
endif()

file(INSTALL "${TWINVMAF_MODULE}" ${TWINVMAF_PYTHON_SOURCES} DESTINATION "${package_root}/twinvmaf")
message(STATUS "twinvmaf: the Python package is for ${python} (Python ${version}), in ${package_root}")
if(NOT on_path)
  message(STATUS "twinvmaf: ${package_root} is not on that interpreter's sys.path: "
                 "use it with PYTHONPATH=${package_root}")
endif()

# twinvmaf-report: that interpreter, and the package where it was put.
# Relative to the script within PREFIX (so a DESTDIR staging keeps working),
# the absolute path outside it (a venv elsewhere).
string(FIND "${package_root}/" "${CMAKE_INSTALL_PREFIX}/" in_prefix)
if(in_prefix EQUAL 0)
  file(RELATIVE_PATH TWINVMAF_REPORT_PACKAGE_DIR "${CMAKE_INSTALL_PREFIX}/${TWINVMAF_INSTALL_BINDIR}" "${package_root}")
else()
  set(TWINVMAF_REPORT_PACKAGE_DIR "${package_root}")
endif()
set(Python_EXECUTABLE "${python}")
set(report "${TWINVMAF_BUILD_DIR}/python/install/twinvmaf-report")
configure_file("${TWINVMAF_REPORT_TEMPLATE}" "${report}" @ONLY)
file(INSTALL "${report}" DESTINATION "${CMAKE_INSTALL_PREFIX}/${TWINVMAF_INSTALL_BINDIR}"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
