/* A preload library that does nothing: test-bench runs the libskmd column with it, so the
 * bench's preload path and table arithmetic are tested before libskmd exists. */
int bench_noop_preload_marker;
