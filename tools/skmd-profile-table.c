/* skmd-profile's summary tables (list, show): columns sized to their widest cell, numbers
 * right-aligned, the last text column not padded. */
#include "skmd-profile-common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void table_row(struct table *t, ...)
{
    if (t->nrows == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        void *cells = realloc(t->cells, sizeof(t->cells[0]) * (size_t)cap);
        if (!cells) {
            fprintf(stderr, "skmd-profile: out of memory\n");
            exit(1);
        }
        t->cells = cells;
        t->cap = cap;
    }
    va_list ap;
    va_start(ap, t);
    for (int c = 0; c < t->ncols; c++)
        snprintf(t->cells[t->nrows][c], TABLE_CELL, "%s", va_arg(ap, const char *));
    va_end(ap);
    t->nrows++;
}

void table_print(FILE *out, struct table *t)
{
    int width[TABLE_MAX_COLS];
    for (int c = 0; c < t->ncols; c++) {
        width[c] = (int)strlen(t->header[c]);
        for (int r = 0; r < t->nrows; r++)
            if ((int)strlen(t->cells[r][c]) > width[c])
                width[c] = (int)strlen(t->cells[r][c]);
    }
    for (int r = -1; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const char *s = r < 0 ? t->header[c] : t->cells[r][c];
            int w = c == t->ncols - 1 && !t->right[c] ? 0 : width[c];
            fprintf(out, "%s%*s", c ? "  " : "", t->right[c] ? w : -w, s);
        }
        fputc('\n', out);
    }
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}
