# translations_current: whether each translations/*.ts file holds every string of the sources.
# lupdate runs over ui/ and app/main.cpp into a copy of the file (the file itself is left as it
# is); a string of the sources that the file lacks comes out "unfinished", one the file has but
# the sources no longer do "vanished" (or "obsolete"). Either fails, naming the string.
#   cmake -DLUPDATE=... -DSOURCE_DIR=... -DWORK_DIR=... -DTS_FILES=a.ts;b.ts -DOPTIONS=...
#         -P check_translations.cmake
# The fix: `cmake --build <build> --target update_translations`, then translate what it marks
# unfinished (docs/languages.md).
file(MAKE_DIRECTORY ${WORK_DIR})
# Strings the sources no longer have must show as vanished here, not be dropped.
list(REMOVE_ITEM OPTIONS -no-obsolete)
set(problems "")
foreach(ts IN LISTS TS_FILES)
  get_filename_component(name ${ts} NAME)
  set(copy ${WORK_DIR}/${name})
  configure_file(${ts} ${copy} COPYONLY)
  execute_process(COMMAND ${LUPDATE} ${OPTIONS} ${SOURCE_DIR}/ui ${SOURCE_DIR}/app/main.cpp
                          -ts ${copy}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${status}):\n${output}${errors}")
  endif()
  message(STATUS "${name}: ${output}")
  file(STRINGS ${copy} lines ENCODING UTF-8)
  set(source "")
  set(context "")
  foreach(line IN LISTS lines)
    if(line MATCHES "<name>(.*)</name>")
      set(context "${CMAKE_MATCH_1}")
    elseif(line MATCHES "<source>(.*)</source>")
      set(source "${CMAKE_MATCH_1}")
    elseif(line MATCHES "<source>(.*)")
      set(source "${CMAKE_MATCH_1}...")
    endif()
    if(line MATCHES "type=\"(unfinished|vanished|obsolete)\"")
      string(APPEND problems "  ${name}: ${CMAKE_MATCH_1}: ${context}: ${source}\n")
    endif()
  endforeach()
  file(READ ${ts} before)
  file(READ ${copy} after)
  if(NOT before STREQUAL after AND problems STREQUAL "")
    message(WARNING "${name} is not as lupdate writes it (nothing is missing from it)")
  endif()
endforeach()
if(NOT problems STREQUAL "")
  message(FATAL_ERROR "the translations are not current with the sources:\n${problems}"
                      "Run `cmake --build <build> --target update_translations` and translate "
                      "what it marks unfinished (docs/languages.md).")
endif()
message(STATUS "every string of the sources is translated")
