# gs_embed_files(<target-source-var> <symbol-prefix> <out.c> FILES f1 f2 ...)
#
# Turns files into a C source holding their bytes, so the binary serves its web
# form, its OpenAPI contract and applies its SQL migrations with nothing on disk.
# The generated file defines `const struct gs_embedded_file <prefix>_files[]` and
# `const size_t <prefix>_count` (see db/include/embedded.h for the struct).
set(GS_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_run.cmake)

function(gs_embed_files out_c prefix)
    cmake_parse_arguments(ARG "" "BASE" "FILES" ${ARGN})
    add_custom_command(
        OUTPUT ${out_c}
        COMMAND ${CMAKE_COMMAND} -DOUT=${out_c} -DPREFIX=${prefix} -DBASE=${ARG_BASE}
                "-DFILES=${ARG_FILES}" -P ${GS_EMBED_SCRIPT}
        DEPENDS ${ARG_FILES} ${GS_EMBED_SCRIPT}
        COMMENT "Embedding ${prefix} files"
        VERBATIM)
endfunction()
