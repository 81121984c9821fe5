/* A 121 agent in plain C99, speaking env121's line protocol, version 2
 * (docs/agent-protocol.md). No dependencies:
 *
 *   cc -std=c99 -O2 -o agent examples/c_agent/agent.c
 *   env121 tournament --vs "program:./agent" random --deals 20
 *
 * Each line on stdin is one JSON object. "hello" is answered "hello 2"; a
 * "decision" is answered "ID ACTION" (its id, a space, an action id) and the
 * answer is flushed at once: output sitting in stdio's buffer never reaches
 * env121, and the decision times out. It declares U (id 121) or THE_TRANG
 * (id 123) whenever they are legal, and otherwise plays a legal id drawn from a
 * generator seeded by "start", so a seeded match replays the same.
 *
 * The JSON reader reads the top-level members of one object and skips every
 * other value whole (nested objects and arrays, strings with escapes), which
 * is all these messages need: "type", "protocol", "seed", "id" and "legal".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROTOCOL 2
#define U 121
#define THE_TRANG 123
#define MAX_LEGAL 256

static unsigned long long rng_state = 1;

static unsigned long long next_random(void) { /* xorshift64 */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ------------------------------------------------------------ JSON reading */

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* Past the string starting at the opening quote p; NULL if unterminated. */
static const char *skip_string(const char *p) {
    for (p++; *p; p++) {
        if (*p == '\\') {
            if (!*++p) return NULL;
        } else if (*p == '"') {
            return p + 1;
        }
    }
    return NULL;
}

/* Past one JSON value of any kind (nested ones whole); NULL if malformed. */
static const char *skip_value(const char *p) {
    p = skip_space(p);
    if (*p == '"') return skip_string(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = skip_space(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') { /* a member: "key": value */
                p = skip_string(skip_space(p));
                if (!p) return NULL;
                p = skip_space(p);
                if (*p++ != ':') return NULL;
            }
            p = skip_value(p);
            if (!p) return NULL;
            p = skip_space(p);
            if (*p == ',') { p++; continue; }
            if (*p == close) return p + 1;
            return NULL;
        }
    }
    /* a number, true, false or null */
    const char *start = p;
    while (*p && !strchr(",]} \t\r\n", *p)) p++;
    return p > start ? p : NULL;
}

/* The value of the top-level member `key` of the object in `line`, or NULL. */
static const char *member(const char *line, const char *key) {
    size_t length = strlen(key);
    const char *p = skip_space(line);
    if (*p != '{') return NULL;
    p = skip_space(p + 1);
    while (*p == '"') {
        const char *name = p + 1;
        const char *end = skip_string(p);
        if (!end) return NULL;
        p = skip_space(end);
        if (*p++ != ':') return NULL;
        p = skip_space(p);
        if ((size_t)(end - 1 - name) == length && strncmp(name, key, length) == 0) return p;
        const char *after = skip_value(p);
        if (!after) return NULL;
        p = skip_space(after);
        if (*p != ',') return NULL;
        p = skip_space(p + 1);
    }
    return NULL;
}

static int is_type(const char *line, const char *type) {
    const char *value = member(line, "type");
    size_t length = strlen(type);
    return value && value[0] == '"' && strncmp(value + 1, type, length) == 0 &&
           value[1 + length] == '"';
}

/* The integers of the array at p (at most `most`); their count. */
static int read_ints(const char *p, long long *out, int most) {
    int count = 0;
    if (!p || *p != '[') return 0;
    p = skip_space(p + 1);
    while (*p && *p != ']' && count < most) {
        char *end;
        out[count++] = strtoll(p, &end, 10);
        p = skip_space(end);
        if (*p == ',') p = skip_space(p + 1);
    }
    return count;
}

/* ------------------------------------------------------------------ policy */

static long long choose(const long long *legal, int count) {
    for (int i = 0; i < count; i++)
        if (legal[i] == U || legal[i] == THE_TRANG) return legal[i];
    return legal[next_random() % (unsigned long long)count];
}

/* ------------------------------------------------------------------- lines */

/* One line of stdin, without its newline, in a buffer grown as needed; NULL at EOF. */
static char *read_line(char **buffer, size_t *size) {
    size_t used = 0;
    if (!*buffer) {
        *size = 4096;
        *buffer = malloc(*size);
        if (!*buffer) return NULL;
    }
    for (;;) {
        if (!fgets(*buffer + used, (int)(*size - used), stdin)) return used ? *buffer : NULL;
        used += strlen(*buffer + used);
        if (used && (*buffer)[used - 1] == '\n') {
            (*buffer)[used - 1] = '\0';
            return *buffer;
        }
        if (used + 1 < *size) return *buffer; /* the last line, without a newline */
        char *grown = realloc(*buffer, *size * 2);
        if (!grown) return NULL;
        *buffer = grown;
        *size *= 2;
    }
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    long long legal[MAX_LEGAL];
    while (read_line(&line, &size)) {
        if (is_type(line, "hello")) {
            const char *version = member(line, "protocol");
            if (!version || atoi(version) != PROTOCOL)
                fprintf(stderr, "agent.c speaks protocol %d only\n", PROTOCOL);
            printf("hello %d\n", PROTOCOL);
        } else if (is_type(line, "start")) {
            const char *seed = member(line, "seed");
            rng_state = (seed ? strtoull(seed, NULL, 10) : 0) * 2654435761ULL + 1;
            continue;
        } else if (is_type(line, "decision")) {
            const char *id = member(line, "id");
            int count = read_ints(member(line, "legal"), legal, MAX_LEGAL);
            if (!id || count == 0) {
                fprintf(stderr, "agent.c: a decision without id or legal ids\n");
                continue;
            }
            printf("%lld %lld\n", strtoll(id, NULL, 10), choose(legal, count));
        } else {
            continue; /* "end", or a type of a later version: nothing to answer */
        }
        fflush(stdout); /* every answer leaves at once */
    }
    free(line);
    return 0;
}
