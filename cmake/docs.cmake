# The documentation: man pages generated from --help by Debian's help2man
# (kseries(1) and one kseries-COMMAND(1) per command, installed by
# `cmake --install` in share/man/man1), and the tests of the docs.
include(GNUInstallDirs)
# The subcommands, as in framework/cli/cli.cc's table; ci/check-man fails
# when `kseries --help` lists a command that has no page here.
set(KSERIES_COMMANDS tree apply build boot gate bisect report plan merge watch coverage)
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(pages)
  foreach(command "" ${KSERIES_COMMANDS})
    if(command)
      set(page ${PROJECT_BINARY_DIR}/man/kseries-${command}.1)
    else()
      set(page ${PROJECT_BINARY_DIR}/man/kseries.1)
    endif()
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -DKSERIES=$<TARGET_FILE:kseries> -DHELP2MAN=${HELP2MAN}
              -DVERSION=${PROJECT_VERSION} -DCOMMAND=${command} -DOUT=${page}
              -P ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
      DEPENDS kseries ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
      COMMENT "man page ${page}" VERBATIM)
    list(APPEND pages ${page})
  endforeach()
  add_custom_target(man ALL DEPENDS ${pages})
  install(FILES ${pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT man)
  add_test(NAME docs.man
    COMMAND bash ${PROJECT_SOURCE_DIR}/ci/check-man $<TARGET_FILE:kseries> ${PROJECT_BINARY_DIR}
            ${HELP2MAN})
  set_tests_properties(docs.man PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 300)
else()
  message(WARNING "help2man not found (ci/install-deps installs it): no man pages")
endif()
add_test(NAME lint.docs
  COMMAND python3 ${PROJECT_SOURCE_DIR}/ci/check-docs ${PROJECT_SOURCE_DIR}
          --kseries $<TARGET_FILE:kseries>)
set_tests_properties(lint.docs PROPERTIES LABELS unit)
