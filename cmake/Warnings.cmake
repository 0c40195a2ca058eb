# gs_warnings: the warning set every target of ours compiles with. -Werror is on
# everywhere: a warning is a bug we have not looked at yet.
add_library(gs_warnings INTERFACE)
target_compile_options(gs_warnings INTERFACE
    -Wall -Wextra -Werror
    -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith
    -Wformat=2 -Wundef -Wvla -Wcast-qual -Wwrite-strings
    -Wimplicit-fallthrough
    # clang: a loop whose condition variables the body never changes (issue 17, finding 10)
    $<$<C_COMPILER_ID:Clang>:-Wfor-loop-analysis>)
