/* tools/trace/svg.c: draws a timeline as SVG. */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEFT 16       /* lane names sit above their lanes: never cut at the edge */
#define RIGHT 20
#define TOP 72        /* title, launch numbers and time axis */
#define LANE_HEIGHT 34
#define LANE_GAP 24   /* holds the next lane's name */
#define MIN_SPAN_PX 3 /* a sub-millisecond transfer in a long run is still seen */

static const struct {
    const char *category, *colour, *label;
} styles[] = {
    {"transfer_in", "#4e79a7", "transfer in"},
    {"kernel", "#59a14f", "kernel"},
    {"transfer_out", "#f28e2b", "transfer out"},
    {"merge", "#e15759", "merge"},
    {"other", "#9c9c9c", "other"},
};
#define STYLE_COUNT (sizeof(styles) / sizeof(styles[0]))

static size_t style_of(const char *category)
{
    for (size_t i = 0; i + 1 < STYLE_COUNT; i++)
        if (strcmp(styles[i].category, category) == 0)
            return i;
    return STYLE_COUNT - 1;
}

/* Text with the five XML special characters escaped; at most `max` characters (then "…"). */
static void put_text(FILE *out, const char *text, size_t max)
{
    size_t n = 0;
    for (; *text && n < max; text++, n++) {
        switch (*text) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default:
            if ((unsigned char)*text >= 0x20 || *text == '\t')
                fputc(*text, out);
        }
    }
    if (*text)
        fputs("\xe2\x80\xa6", out); /* U+2026, cut */
}

/* A step of 1, 2 or 5 times a power of ten giving about `ticks` ticks over `range`. */
static double nice_step(double range, int ticks)
{
    double raw = range / ticks, power = pow(10, floor(log10(raw)));
    double fraction = raw / power;
    return (fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10) * power;
}

/* The picture's start: its size, a white ground and the title. */
static void begin_picture(FILE *out, int width, int height, const char *title)
{
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"%d\" y=\"16\" font-size=\"14\" font-weight=\"bold\">",
            width, height, width, height, LEFT);
    put_text(out, title, 200);
}

/* The legend below `bottom`, and the picture's end. */
static void end_picture(FILE *out, int bottom)
{
    fprintf(out, "<g class=\"legend\">\n");
    for (size_t i = 0; i + 1 < STYLE_COUNT; i++) {
        int x = LEFT + (int)i * 130;
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>"
                     "<text x=\"%d\" y=\"%d\">%s</text>\n",
                x, bottom + 16, styles[i].colour, x + 20, bottom + 27, styles[i].label);
    }
    fprintf(out, "</g>\n</svg>\n");
}

int svg_write(FILE *out, const struct timeline *t, const char *title, int width)
{
    double range = t->end_us - t->start_us;
    if (range <= 0)
        range = 1;
    double plot = width - LEFT - RIGHT;
    int height = TOP + 16 + (int)t->lane_count * (LANE_HEIGHT + LANE_GAP) + 50;
    int in_ms = range >= 2000;
    double unit = in_ms ? 1000 : 1;

    begin_picture(out, width, height, title);
    fprintf(out, "</text>\n");

    /* time axis: ticks and light lines through the lanes */
    double step = nice_step(range / unit, 8);
    int lanes_bottom = TOP + 16 + (int)t->lane_count * (LANE_HEIGHT + LANE_GAP);
    fprintf(out, "<g class=\"axis\" stroke=\"#888\">\n<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
            LEFT, TOP - 8, LEFT + plot, TOP - 8);
    /* (the axis runs across the top; the lanes start below the first lane's name) */
    for (int k = 0; k * step <= range / unit + 1e-9; k++) {
        double x = LEFT + k * step * unit / range * plot;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x,
                TOP - 8, x, lanes_bottom);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" stroke=\"none\" "
                     "fill=\"#333\">%g</text>\n",
                x, TOP - 14, k * step);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" stroke=\"none\" fill=\"#333\">"
                 "time (%s)</text>\n</g>\n",
            LEFT + plot, TOP - 28, in_ms ? "ms" : "\xc2\xb5s");

    /* launch markers: a dashed line where each launch's first span starts, numbered */
    fprintf(out, "<g class=\"launches\" stroke=\"#555\" stroke-dasharray=\"3,3\">\n");
    long max_launch = 0;
    for (size_t i = 0; i < t->span_count; i++)
        if (t->spans[i].launch > max_launch)
            max_launch = t->spans[i].launch;
    double *first = max_launch > 0 ? malloc(((size_t)max_launch + 1) * sizeof *first) : NULL;
    for (long k = 0; first && k <= max_launch; k++)
        first[k] = HUGE_VAL;
    for (size_t i = 0; first && i < t->span_count; i++) {
        long k = t->spans[i].launch; /* 0: the app's own transfers, no launch */
        if (k > 0 && t->spans[i].start_us < first[k])
            first[k] = t->spans[i].start_us;
    }
    double last_x = -1e9;
    for (long k = 1; first && k <= max_launch; k++) {
        if (first[k] == HUGE_VAL)
            continue;
        double x = LEFT + (first[k] - t->start_us) / range * plot;
        fprintf(out, "<line class=\"launch\" data-launch=\"%ld\" x1=\"%.1f\" y1=\"%d\" "
                     "x2=\"%.1f\" y2=\"%d\"/>\n",
                k, x, TOP - 4, x, lanes_bottom);
        if (x - last_x >= 24) { /* numbers that would overlap are left to the lines */
            fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" stroke=\"none\" "
                         "fill=\"#555\" font-size=\"10\">#%ld</text>\n",
                    x, TOP - 34, k);
            last_x = x;
        }
    }
    free(first);
    fprintf(out, "</g>\n");

    for (size_t l = 0; l < t->lane_count; l++) {
        int y = TOP + 16 + (int)l * (LANE_HEIGHT + LANE_GAP);
        fprintf(out, "<g class=\"lane\" data-lane=\"%zu\" data-tid=\"%ld\">\n", l, t->lanes[l].tid);
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
                LEFT, y, plot, LANE_HEIGHT);
        fprintf(out, "<text class=\"lane-name\" x=\"%d\" y=\"%d\" font-weight=\"bold\">", LEFT,
                y - 5);
        put_text(out, t->lanes[l].name, 200);
        fprintf(out, "</text>\n");
        for (size_t i = 0; i < t->span_count; i++) {
            const struct timeline_span *s = &t->spans[i];
            if (s->lane != l)
                continue;
            size_t style = style_of(s->category);
            double x = LEFT + (s->start_us - t->start_us) / range * plot;
            double w = s->duration_us / range * plot;
            if (w < MIN_SPAN_PX)
                w = MIN_SPAN_PX; /* visible however short */
            fprintf(out, "<rect class=\"span %s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
                         "fill=\"%s\" fill-opacity=\"0.9\" stroke=\"white\" stroke-width=\"0.5\">"
                         "<title>",
                    styles[style].category, x, y + 2, w, LANE_HEIGHT - 4, styles[style].colour);
            put_text(out, s->name, 120);
            fprintf(out, " (%s): %.3f ms from %.3f ms; %.0f work-groups, %.0f bytes</title></rect>\n",
                    styles[style].label, s->duration_us / 1000, (s->start_us - t->start_us) / 1000,
                    s->work_groups, s->bytes);
            size_t fits = (size_t)(w / 7); /* characters that fit, ~7 px each */
            if (fits >= 4) {
                fprintf(out, "<text x=\"%.2f\" y=\"%d\" fill=\"white\" font-size=\"11\">", x + 3,
                        y + LANE_HEIGHT / 2 + 4);
                put_text(out, s->name, fits - 1);
                fprintf(out, "</text>\n");
            }
        }
        fprintf(out, "</g>\n");
    }

    /* legend */
    end_picture(out, lanes_bottom);
    return ferror(out) ? -1 : 0;
}

/* --rows: one row per launch, each drawn from its own start on one time scale, with a thin
 * line per device. The scale is the longest launch but one (with three launches or more):
 * a cold first launch (its builds) does not squeeze the others; a longer one is cut at the
 * right edge and says how long it took. The app's own transfers (no launch) are left out. */
#define ROW_LINE 10 /* a device's line in a row */
#define ROW_HEAD 18 /* the row's label */

struct row {
    long launch;
    double start_us, end_us;
    const char *kernel;
};

static int by_launch(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    return (x->launch > y->launch) - (x->launch < y->launch);
}

static size_t launch_rows(const struct timeline *t, struct row *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < t->span_count; i++) {
        const struct timeline_span *s = &t->spans[i];
        if (s->launch <= 0)
            continue;
        size_t r = 0;
        while (r < n && rows[r].launch != s->launch)
            r++;
        if (r == n)
            rows[n++] = (struct row){s->launch, s->start_us, s->start_us + s->duration_us,
                                     s->kernel};
        if (s->start_us < rows[r].start_us)
            rows[r].start_us = s->start_us;
        if (s->start_us + s->duration_us > rows[r].end_us)
            rows[r].end_us = s->start_us + s->duration_us;
    }
    qsort(rows, n, sizeof *rows, by_launch);
    return n;
}

int svg_write_rows(FILE *out, const struct timeline *t, const char *title, int width)
{
    struct row *rows = malloc((t->span_count ? t->span_count : 1) * sizeof *rows);
    if (!rows)
        return -1;
    size_t n = launch_rows(t, rows);
    double longest = 0, second = 0;
    for (size_t r = 0; r < n; r++) {
        double d = rows[r].end_us - rows[r].start_us;
        if (d > longest) {
            second = longest;
            longest = d;
        } else if (d > second) {
            second = d;
        }
    }
    double range = n >= 3 && second > 0 ? second : longest > 0 ? longest : 1;
    double plot = width - LEFT - RIGHT;
    int row_height = ROW_HEAD + (int)t->lane_count * ROW_LINE + 8;
    int height = TOP + (int)n * row_height + 50;
    int in_ms = range >= 2000;
    double unit = in_ms ? 1000 : 1;
    begin_picture(out, width, height, title);
    fprintf(out, "</text>\n<text x=\"%d\" y=\"34\" fill=\"#333\">one row per launch, from its "
                 "start; lines top to bottom: ", LEFT);
    for (size_t l = 0; l < t->lane_count; l++) {
        put_text(out, t->lanes[l].name, 40);
        fputs(l + 1 < t->lane_count ? "; " : "", out);
    }
    fprintf(out, "</text>\n");

    int bottom = TOP + (int)n * row_height;
    double step = nice_step(range / unit, 8);
    fprintf(out, "<g class=\"axis\" stroke=\"#888\">\n<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" "
                 "y2=\"%d\"/>\n", LEFT, TOP - 8, LEFT + plot, TOP - 8);
    for (int k = 0; k * step <= range / unit + 1e-9; k++) {
        double x = LEFT + k * step * unit / range * plot;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
                     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" stroke=\"none\" "
                     "fill=\"#333\">%g</text>\n",
                x, TOP - 8, x, bottom, x, TOP - 14, k * step);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" stroke=\"none\" fill=\"#333\">"
                 "time since the launch's start (%s)</text>\n</g>\n",
            LEFT + plot, TOP - 28, in_ms ? "ms" : "\xc2\xb5s");

    for (size_t r = 0; r < n; r++) {
        int y = TOP + (int)r * row_height;
        double d = rows[r].end_us - rows[r].start_us;
        fprintf(out, "<g class=\"row\" data-launch=\"%ld\">\n<text class=\"row-name\" x=\"%d\" "
                     "y=\"%d\" font-weight=\"bold\">#%ld ", rows[r].launch, LEFT, y + 13,
                rows[r].launch);
        put_text(out, rows[r].kernel, 60);
        fprintf(out, "</text><text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#333\">%.3f ms%s"
                     "</text>\n", LEFT + plot, y + 13, d / 1000, d > range ? " (cut)" : "");
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
                LEFT, y + ROW_HEAD, plot, (int)t->lane_count * ROW_LINE);
        for (size_t i = 0; i < t->span_count; i++) {
            const struct timeline_span *s = &t->spans[i];
            if (s->launch != rows[r].launch)
                continue;
            double from = s->start_us - rows[r].start_us;
            if (from >= range)
                continue;
            double x = LEFT + from / range * plot;
            double w = (s->duration_us < range - from ? s->duration_us : range - from) / range *
                       plot;
            if (w < MIN_SPAN_PX)
                w = MIN_SPAN_PX;
            size_t style = style_of(s->category);
            fprintf(out, "<rect class=\"span %s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
                         "height=\"%d\" fill=\"%s\"><title>",
                    styles[style].category, x, y + ROW_HEAD + (int)s->lane * ROW_LINE + 1, w,
                    ROW_LINE - 2, styles[style].colour);
            put_text(out, t->lanes[s->lane].name, 60);
            fputs(": ", out);
            put_text(out, s->name, 120);
            fprintf(out, " (%s): %.3f ms from %.3f ms</title></rect>\n", styles[style].label,
                    s->duration_us / 1000, from / 1000);
        }
        fprintf(out, "</g>\n");
    }
    end_picture(out, bottom);
    free(rows);
    return ferror(out) ? -1 : 0;
}
