/* tests/controls: an empty shared library that test-skmd-run.sh preloads in place of
 * libskmd.so, so that the flags are tested without the library itself. */
int skmd_empty_preload_marker;
