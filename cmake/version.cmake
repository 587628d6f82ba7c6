# `kseries --version`: the project's VERSION and the checkout's git describe,
# taken at every build (not at configure time), into a generated header that
# framework/cli/cli.cc includes.
set(KSERIES_VERSION_DIR ${PROJECT_BINARY_DIR}/generated)
set(KSERIES_VERSION_HEADER ${KSERIES_VERSION_DIR}/kseries_version.h)
set(_version_args -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
    -DOUT=${KSERIES_VERSION_HEADER} -P ${PROJECT_SOURCE_DIR}/cmake/version_header.cmake)
# Once now, so the header exists before the first compile scans for it.
execute_process(COMMAND ${CMAKE_COMMAND} ${_version_args})
add_custom_target(kseries_version_header
  COMMAND ${CMAKE_COMMAND} ${_version_args}
  BYPRODUCTS ${KSERIES_VERSION_HEADER}
  COMMENT "kseries version: git describe")
target_include_directories(kseries_cli PRIVATE ${KSERIES_VERSION_DIR})
add_dependencies(kseries_cli kseries_version_header)
