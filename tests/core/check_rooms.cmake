# The rooms of core/ and which way their dependencies point (core/README.md): every
# `#include "..."` of a core file must name a file of a room it may use, no core file includes a
# Qt header, and no core file grows past about 400 lines.
#
#   cmake -DCORE=path/to/core -P check_rooms.cmake
#
# Levels, lowest first: the top level's basics (the scenario, the estimate's vocabulary, the
# catalog); model/; training/ and serving/ (side by side, never each other); the estimate's
# assembly (estimate.h and estimate*.cpp at the top); formats/; advice/ and runs/ (side by side,
# never each other). A file may include its own room and any room below it.

cmake_minimum_required(VERSION 3.25)

if(NOT CORE)
  message(FATAL_ERROR "usage: cmake -DCORE=<core dir> -P check_rooms.cmake")
endif()
get_filename_component(CORE ${CORE} ABSOLUTE)

# Past this a file has more than one job (issue 19: "no file over about 400 lines").
set(max_lines 420)

set(assembly_files estimate.h estimate.cpp estimate_peak.h estimate_peak.cpp)

# The room a path (relative to core/) belongs to.
function(room_of path out)
  if(path MATCHES "^([a-z]+)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  elseif(path IN_LIST assembly_files)
    set(${out} assembly PARENT_SCOPE)
  else()
    set(${out} basics PARENT_SCOPE)
  endif()
endfunction()

set(allowed_basics basics)
set(allowed_model basics model)
set(allowed_training basics model training)
set(allowed_serving basics model serving)
set(allowed_assembly basics model training serving assembly)
# rl/ plans post-training phase by phase on top of the assembled estimate (it calls estimate()
# for the update step); estimate() reaches it through the declaration of estimateRl in estimate.h.
set(allowed_rl basics model training serving assembly rl)
set(allowed_formats basics model training serving assembly rl formats)
set(allowed_advice basics model training serving assembly rl formats advice)
set(allowed_runs basics model training serving assembly rl formats runs)
set(allowed_imports basics model training serving assembly rl formats imports)

file(GLOB_RECURSE files RELATIVE ${CORE} ${CORE}/*.h ${CORE}/*.cpp)
set(problems "")
set(checked 0)
foreach(file IN LISTS files)
  room_of(${file} room)
  if(NOT DEFINED allowed_${room})
    string(APPEND problems "  ${file}: in no known room (${room}/); add it to check_rooms.cmake\n")
    continue()
  endif()
  file(READ ${CORE}/${file} text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines count)
  if(count GREATER max_lines)
    string(APPEND problems "  ${file}: ${count} lines (more than ${max_lines}): split it by what it does\n")
  endif()
  file(STRINGS ${CORE}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS includes)
    if(line MATCHES "#[ \t]*include[ \t]*<(Q[A-Za-z]*)")
      string(APPEND problems "  ${file}: includes the Qt header <${CMAKE_MATCH_1}>; core/ has no Qt\n")
    elseif(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      set(target ${CMAKE_MATCH_1})
      if(NOT EXISTS ${CORE}/${target})
        string(APPEND problems "  ${file}: includes \"${target}\", which is not a path from core/\n")
        continue()
      endif()
      room_of(${target} target_room)
      if(NOT target_room IN_LIST allowed_${room})
        string(REPLACE ";" ", " may_use "${allowed_${room}}")
        string(APPEND problems
               "  ${file} (${room}) includes ${target} (${target_room}): ${room} may use ${may_use}\n")
      endif()
    endif()
  endforeach()
  math(EXPR checked "${checked} + 1")
endforeach()

if(problems)
  message(FATAL_ERROR "core/ rooms: problems found:\n${problems}")
endif()
message(STATUS "core/ rooms: ${checked} files, every include points down, no Qt, none over ${max_lines} lines")
