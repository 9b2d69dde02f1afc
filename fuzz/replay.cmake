# The fuzz targets (fuzz/*_fuzz.cpp) built by the normal build with fuzz/replay_main.cpp instead
# of libFuzzer, and a ctest per target that runs its checked-in corpus (fuzz/corpus/TARGET/)
# through the real readers: every seed and every input that once crashed a target must still be
# read or refused with a message, no clang needed. Included by tests/CMakeLists.txt. The
# fuzzing itself is scripts/fuzz.sh (clang, libFuzzer, sanitizers).
set(rl_fuzz_dir ${PROJECT_SOURCE_DIR}/fuzz)

function(rl_fuzz_replay target)
  add_executable(${target}_replay ${rl_fuzz_dir}/${target}.cpp ${rl_fuzz_dir}/replay_main.cpp
                                  ${ARGN})
  target_include_directories(${target}_replay PRIVATE ${rl_fuzz_dir} ${PROJECT_SOURCE_DIR}/cli)
  target_link_libraries(${target}_replay PRIVATE rl_engine CLI11::CLI11)
  target_compile_options(${target}_replay PRIVATE -Wall -Wextra)
  add_test(NAME fuzz_corpus_${target} COMMAND ${target}_replay ${rl_fuzz_dir}/corpus/${target})
endfunction()

rl_fuzz_replay(session_reader_fuzz)
rl_fuzz_replay(spec_reader_fuzz)
# The CLI's grammar: the sources of reductionlab-cli the target parses with (not its main()).
set(rl_fuzz_cli_sources cmd_variants.cpp format.cpp output_files.cpp parse_args.cpp
                        run_counts.cpp run_spec.cpp)
list(TRANSFORM rl_fuzz_cli_sources PREPEND ${PROJECT_SOURCE_DIR}/cli/)
rl_fuzz_replay(cli_args_fuzz ${rl_fuzz_cli_sources})
