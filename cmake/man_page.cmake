# Run with cmake -P: one man page from `kseries [COMMAND] --help`, by Debian's
# help2man. -DKSERIES=binary -DHELP2MAN=program -DVERSION=x.y -DOUT=file.1
# [-DCOMMAND=name]. The page's one-line summary is the command's line in
# `kseries --help` (the subcommand table in framework/cli/cli.cc), so no
# summary is written twice.
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
if(COMMAND)
  execute_process(COMMAND "${KSERIES}" --help OUTPUT_VARIABLE usage RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${KSERIES} --help failed (${status})")
  endif()
  string(REGEX MATCH "\n  ${COMMAND} +([^\n]*)" line "${usage}")
  if(NOT line)
    message(FATAL_ERROR "kseries --help lists no command '${COMMAND}'")
  endif()
  set(summary "${CMAKE_MATCH_1}")
  # help2man runs a program: this one is `kseries COMMAND`, named for the page.
  set(program "${dir}/wrappers/kseries-${COMMAND}")
  file(WRITE "${program}" "#!/bin/sh\nexec '${KSERIES}' ${COMMAND} \"$@\"\n")
  file(CHMOD "${program}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(see_also "kseries(1)")
else()
  set(program "${KSERIES}")
  set(summary "validate a Linux kernel patch series: apply, build, boot, measure, compare")
  set(see_also "kseries-COMMAND(1) for each command listed above")
endif()
set(include "${OUT}.h2m")
file(WRITE "${include}" "[SEE ALSO]\n${see_also}.\n.PP\nThe documentation in kseries' source "
     "tree: README.md and docs/ (one page per command, the design, the glossary).\n")
execute_process(COMMAND "${HELP2MAN}" --no-info --section=1 "--version-string=${VERSION}"
                        "--name=${summary}" "--source=kseries ${VERSION}"
                        "--manual=kseries manual" "--include=${include}" -o "${OUT}" "${program}"
                RESULT_VARIABLE status ERROR_VARIABLE error)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help2man ${program}: ${error}")
endif()
