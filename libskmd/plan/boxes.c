/* libskmd/plan/boxes.c: linear work-group ranges as boxes (see boxes.h). */
#include "plan/boxes.h"

/* Appends the box of `n` groups (level 0), whole rows (1) or whole planes (2) that starts
 * at linear group `pos`. */
static void add_box(const uint64_t ng[3], uint64_t pos, uint64_t n, int level,
                    struct skmd_box *out, int *nboxes)
{
    struct skmd_box *b = &out[(*nboxes)++];
    b->start[0] = pos % ng[0];
    b->start[1] = pos / ng[0] % ng[1];
    b->start[2] = pos / (ng[0] * ng[1]);
    b->size[0] = level == 0 ? n : ng[0];
    b->size[1] = level == 0 ? 1 : level == 1 ? n : ng[1];
    b->size[2] = level == 2 ? n : 1;
}

int skmd_boxes(const uint64_t ngroups[3], uint64_t first, uint64_t count,
               struct skmd_box out[SKMD_MAX_BOXES])
{
    const uint64_t row = ngroups[0], plane = ngroups[0] * ngroups[1];
    const uint64_t total = plane * ngroups[2];
    if (count == 0 || row == 0 || ngroups[1] == 0 || ngroups[2] == 0 || first >= total ||
        count > total - first)
        return 0;
    uint64_t pos = first, end = first + count, take;
    int n = 0;
    /* 1. The partial first row, up to the next row boundary. */
    if (pos % row) {
        take = (pos / row + 1) * row;
        take = (take < end ? take : end) - pos;
        add_box(ngroups, pos, take, 0, out, &n);
        pos += take;
    }
    /* 2. Whole rows up to the next plane boundary. */
    if (pos < end && pos % plane) {
        take = (pos / plane + 1) * plane;
        take = ((take < end ? take : end) - pos) / row;
        if (take) {
            add_box(ngroups, pos, take, 1, out, &n);
            pos += take * row;
        }
    }
    /* 3. Whole planes. */
    if (pos < end && pos % plane == 0 && (take = (end - pos) / plane)) {
        add_box(ngroups, pos, take, 2, out, &n);
        pos += take * plane;
    }
    /* 4. Whole rows of the last plane. */
    if (pos < end && (take = (end - pos) / row)) {
        add_box(ngroups, pos, take, 1, out, &n);
        pos += take * row;
    }
    /* 5. The partial last row. */
    if (pos < end)
        add_box(ngroups, pos, end - pos, 0, out, &n);
    return n;
}
