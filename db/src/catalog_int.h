/* catalog_int.h - what the db modules share and nothing else sees. */
#ifndef GS_CATALOG_INT_H
#define GS_CATALOG_INT_H

#include <sqlite3.h>

struct catalog;

/* The connection behind a handle (borrowed). */
sqlite3 *catalog_db(struct catalog *catalog);

#endif
