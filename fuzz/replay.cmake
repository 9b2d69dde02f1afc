# The fuzz targets (fuzz/*_fuzz.cpp) built by the normal build with fuzz/replay_main.cpp instead
# of libFuzzer, and a ctest per target that runs its checked-in corpus (fuzz/corpus/TARGET/)
# through the real readers: every seed and every input that once crashed a target must still be
# read or refused with a message, no clang needed. Included by tests/CMakeLists.txt. The
# fuzzing itself is scripted in scripts/fuzz.sh (clang, libFuzzer, sanitizers).
#
# The binaries link the object libraries of the source lists alone (rl_readers and
# rl_grammar_support from engine/reader_sources.cmake, rl_cli_grammar from
# cli/grammar_sources.cmake), never rl_engine: the libFuzzer build (fuzz/CMakeLists.txt)
# compiles the same lists, so a reader that comes to call a source missing from them fails
# this build, and CI, rather than the fuzz build nobody runs every day.
set(rl_fuzz_dir ${PROJECT_SOURCE_DIR}/fuzz)

# An object library linked directly adds its objects (CMake 3.12+): each library is named here.
function(rl_fuzz_replay target)
  add_executable(${target}_replay ${rl_fuzz_dir}/${target}.cpp ${rl_fuzz_dir}/replay_main.cpp)
  target_include_directories(${target}_replay PRIVATE ${rl_fuzz_dir})
  target_link_libraries(${target}_replay PRIVATE ${ARGN} CUDA::cudart_static ${CMAKE_DL_LIBS})
  target_compile_options(${target}_replay PRIVATE -Wall -Wextra)
  add_test(NAME fuzz_corpus_${target} COMMAND ${target}_replay ${rl_fuzz_dir}/corpus/${target})
endfunction()

rl_fuzz_replay(session_reader_fuzz rl_readers)
rl_fuzz_replay(spec_reader_fuzz rl_readers)
rl_fuzz_replay(cli_args_fuzz rl_readers rl_grammar_support rl_cli_grammar)
