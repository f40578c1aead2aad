# Runs the shared spec under lua5.4 with the C module and under LuaJIT with cleave.ffi, and
# requires both to pass with the same "result" lines (the arena hashes among them).
# -DLUA54=... -DLUAJIT=... -DMODULE_DIR=... -DLIB=... -DSRC=...
set(spec ${SRC}/tests/shared/arena_shared_spec.lua)
set(runner ${SRC}/tests/shared/run.lua)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "LUA_CPATH=${MODULE_DIR}/?.so;;"
  ${LUA54} ${runner} c ${spec} ${SRC} OUTPUT_VARIABLE out_c ERROR_VARIABLE err_c RESULT_VARIABLE rc_c)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "CLEAVE_LIB=${LIB}"
  ${LUAJIT} ${runner} ffi ${spec} ${SRC} OUTPUT_VARIABLE out_j ERROR_VARIABLE err_j RESULT_VARIABLE rc_j)
message("lua5.4 with cleave.so:\n${out_c}")
message("luajit with cleave.ffi:\n${out_j}")
if(NOT rc_c EQUAL 0 OR NOT rc_j EQUAL 0)
  message(FATAL_ERROR "the shared spec failed (lua5.4: ${rc_c}, luajit: ${rc_j})\n${err_c}\n${err_j}")
endif()
string(REGEX MATCHALL "result [^\n]*" results_c "${out_c}")
string(REGEX MATCHALL "result [^\n]*" results_j "${out_j}")
if(NOT results_c MATCHES "result fight_hash_600 [0-9a-f]+")
  message(FATAL_ERROR "no arena hash after 600 frames in the output")
endif()
if(NOT results_c STREQUAL results_j)
  message(FATAL_ERROR "the two bindings differ:\nlua5.4: ${results_c}\nluajit: ${results_j}")
endif()
message(STATUS "identical results from both bindings")
