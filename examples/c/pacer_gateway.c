/*
 * pacer_gateway.c - a minimal gateway for the pacer, written from protocol.md alone.
 *
 * Sends COUNT BidRequests (requestIds 1..COUNT) for one campaign, pipelined up to WINDOW
 * outstanding; correlates BidResponses by requestId (never by order) and checks each request
 * is answered exactly once; settles every BID with a WinNotice (or a LossNotice when the win
 * price is 0); prints a summary. Single file, C11 + POSIX sockets, no other dependencies:
 *
 *   cc -std=c11 -O2 -Wall -Wextra -Werror -o pacer-gateway pacer_gateway.c
 *   ./pacer-gateway HOST PORT CAMPAIGN_ID COUNT BID_CPM_MICROS [WIN_PRICE_CPM_MICROS]
 *
 * Wire format (protocol.md): SOFH (messageLength u32, encodingType u16; big-endian), then the
 * SBE header (blockLength, templateId, schemaId, version; u16 little-endian), then the root
 * block (little-endian). Bytes are encoded one at a time: no struct packing, no host order.
 *
 * Exit status: 0 every request answered exactly once, 1 otherwise, 2 usage/connection error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum {
    HDR_LEN = 14,                  /* SOFH (6) + SBE message header (8) */
    ENCODING_SBE_LE = 0xEB50, SCHEMA_ID = 1, SCHEMA_VERSION = 0,
    TID_BID_REQUEST = 1, TID_BID_RESPONSE = 2, TID_WIN = 3, TID_LOSS = 4, TID_ERROR = 5,
    BL_BID_REQUEST = 24, BL_BID_RESPONSE = 16, BL_WIN = 24, BL_LOSS = 16, BL_ERROR = 16,
    MAX_READ_BLOCK = 16,           /* largest root block we decode (BidResponse, Error) */
    WINDOW = 64,                   /* requests outstanding at most */
    IDLE_TIMEOUT_MS = 5000,        /* fail if nothing arrives for this long */
    DRAIN_MS = 1000,               /* after shutdown(SHUT_WR), wait this long for EOF */
    IN_CAP = 64 * 1024,
    /* Pending output stays below WINDOW unsent requests plus WINDOW + 1 unsent notices
     * (output is FIFO, so a notice not yet written holds back every later request). */
    OUT_CAP = 8 * 1024,
};

static const char *const REASONS[] = { "NONE", "UNKNOWN_CAMPAIGN", "CAMPAIGN_INACTIVE",
    "BUDGET_EXHAUSTED", "PACING", "BID_ABOVE_MAX", "OVERLOADED", "INVALID_REQUEST" };
static const char *const ERRORS[] = { "?", "MALFORMED_FRAME", "UNKNOWN_SCHEMA",
    "UNKNOWN_TEMPLATE", "BLOCK_TOO_SHORT", "NOT_PERMITTED" };
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- byte order helpers ------------------------------------------------------------- */

static void put_u16_be(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put_u32_be(uint8_t *p, uint32_t v) { put_u16_be(p, (uint16_t)(v >> 16)); put_u16_be(p + 2, (uint16_t)v); }
static void put_u16_le(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put_u64_le(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint16_t get_u16_be(const uint8_t *p) { return (uint16_t)((unsigned)p[0] << 8 | p[1]); }
static uint32_t get_u32_be(const uint8_t *p) { return (uint32_t)get_u16_be(p) << 16 | get_u16_be(p + 2); }
static uint16_t get_u16_le(const uint8_t *p) { return (uint16_t)(p[0] | (unsigned)p[1] << 8); }
static uint64_t get_u64_le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* ---- state ---------------------------------------------------------------------------- */

struct gateway {
    int fd;
    uint64_t campaign, count, next_id;   /* next_id: next requestId to enqueue */
    int64_t bid, win;                    /* win == 0: settle BIDs with LossNotice */
    uint8_t *seen;                       /* seen[id] != 0 once requestId id is answered */
    uint64_t answered, bids, no_bids, wins_sent, losses_sent, errors, violations;
    uint64_t reasons[256];
    uint8_t out[OUT_CAP]; size_t out_head, out_tail;   /* bytes [head, tail) not yet written */
    uint8_t in[IN_CAP];   size_t in_len;
    uint64_t skip;                       /* bytes of the current frame still to discard */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- encoding --------------------------------------------------------------------------- */

/* Reserves one frame of HDR_LEN + block bytes in the output buffer and writes its headers. */
static uint8_t *begin_frame(struct gateway *g, uint16_t block, uint16_t template_id)
{
    size_t len = HDR_LEN + (size_t)block;
    if (g->out_tail + len > OUT_CAP) {                  /* compact */
        memmove(g->out, g->out + g->out_head, g->out_tail - g->out_head);
        g->out_tail -= g->out_head;
        g->out_head = 0;
    }
    if (g->out_tail + len > OUT_CAP) {                  /* cannot happen: see OUT_CAP */
        fprintf(stderr, "pacer-gateway: output buffer overflow\n");
        abort();
    }
    uint8_t *f = g->out + g->out_tail;
    g->out_tail += len;
    put_u32_be(f, (uint32_t)len);
    put_u16_be(f + 4, ENCODING_SBE_LE);
    put_u16_le(f + 6, block);
    put_u16_le(f + 8, template_id);
    put_u16_le(f + 10, SCHEMA_ID);
    put_u16_le(f + 12, SCHEMA_VERSION);
    return f + HDR_LEN;
}

static void enqueue_bid_request(struct gateway *g, uint64_t id)
{
    uint8_t *b = begin_frame(g, BL_BID_REQUEST, TID_BID_REQUEST);
    put_u64_le(b, id);
    put_u64_le(b + 8, g->campaign);
    put_u64_le(b + 16, (uint64_t)g->bid);               /* two's complement, by definition */
}

/* Settles a BID: WinNotice at the win price, or LossNotice when that price is 0. */
static void enqueue_notice(struct gateway *g, uint64_t id)
{
    bool loss = g->win == 0;
    uint8_t *b = loss ? begin_frame(g, BL_LOSS, TID_LOSS) : begin_frame(g, BL_WIN, TID_WIN);
    put_u64_le(b, id);
    put_u64_le(b + 8, g->campaign);
    if (!loss) put_u64_le(b + 16, (uint64_t)g->win);
    if (loss) g->losses_sent++; else g->wins_sent++;
}

/* Writes what the socket takes now. Returns false on a write error. */
static bool flush_out(struct gateway *g)
{
    while (g->out_head < g->out_tail) {
        ssize_t n = write(g->fd, g->out + g->out_head, g->out_tail - g->out_head);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
            perror("pacer-gateway: write");
            return false;
        }
        g->out_head += (size_t)n;
    }
    g->out_head = g->out_tail = 0;
    return true;
}

/* ---- decoding --------------------------------------------------------------------------- */

static void on_response(struct gateway *g, const uint8_t *b)
{
    uint64_t id = get_u64_le(b);
    uint8_t decision = b[8], reason = b[9];
    if (id == 0 || id > g->count || g->seen[id]) {
        fprintf(stderr, "pacer-gateway: %s answer for requestId %" PRIu64 "\n",
                (id == 0 || id > g->count) ? "unexpected" : "duplicate", id);
        g->violations++;
        return;
    }
    g->seen[id] = 1;
    g->answered++;
    if (decision == 1) {
        g->bids++;
        enqueue_notice(g, id);
    } else if (decision == 0) {
        g->no_bids++;
        g->reasons[reason]++;
    } else {
        fprintf(stderr, "pacer-gateway: requestId %" PRIu64 ": bad decision %u\n", id, decision);
        g->violations++;
    }
}

static void on_error(struct gateway *g, const uint8_t *b)
{
    uint16_t code = get_u16_le(b + 8);
    fprintf(stderr, "pacer-gateway: Error code=%u (%s) requestId=%" PRIu64 " templateId=%u\n",
            code, code < NELEMS(ERRORS) ? ERRORS[code] : "?", get_u64_le(b), get_u16_le(b + 10));
    g->errors++;
}

/* Decodes every complete frame header + known block in the input buffer. A frame longer than
 * what we decode (a later version's additions) is skipped, even across reads. Returns false
 * when framing is lost. */
static bool parse_input(struct gateway *g)
{
    size_t pos = 0;
    for (;;) {
        if (g->skip > 0) {
            size_t n = g->in_len - pos < g->skip ? g->in_len - pos : (size_t)g->skip;
            pos += n;
            g->skip -= n;
            if (g->skip > 0) break;
        }
        size_t avail = g->in_len - pos;
        if (avail < HDR_LEN) break;
        const uint8_t *f = g->in + pos;
        uint32_t mlen = get_u32_be(f);
        uint16_t enc = get_u16_be(f + 4), block = get_u16_le(f + 6);
        uint16_t tid = get_u16_le(f + 8), schema = get_u16_le(f + 10);
        if (enc != ENCODING_SBE_LE || mlen < HDR_LEN + (uint32_t)block) {
            fprintf(stderr, "pacer-gateway: malformed frame (messageLength=%" PRIu32
                    " encodingType=0x%04X blockLength=%u)\n", mlen, enc, block);
            g->violations++;
            return false;
        }
        size_t need = HDR_LEN + (block < MAX_READ_BLOCK ? block : MAX_READ_BLOCK);
        if (avail < need) break;                        /* wait for the known fields */

        if (schema != SCHEMA_ID) {                      /* version: later ones only append */
            fprintf(stderr, "pacer-gateway: skipping frame of schema %u\n", schema);
        } else if (tid == TID_BID_RESPONSE || tid == TID_ERROR) {
            if (block < (tid == TID_BID_RESPONSE ? BL_BID_RESPONSE : BL_ERROR)) {
                fprintf(stderr, "pacer-gateway: template %u block too short (%u)\n", tid, block);
                g->violations++;
            } else if (tid == TID_BID_RESPONSE) {
                on_response(g, f + HDR_LEN);
            } else {
                on_error(g, f + HDR_LEN);
            }
        } else {
            fprintf(stderr, "pacer-gateway: skipping frame of template %u\n", tid);
        }
        size_t take = avail < mlen ? avail : mlen;
        pos += take;
        g->skip = mlen - take;
    }
    memmove(g->in, g->in + pos, g->in_len - pos);
    g->in_len -= pos;
    return true;
}

/* Reads all that is available. Returns 1 on data or EAGAIN, 0 on EOF, -1 on error. */
static int read_input(struct gateway *g, int64_t *last_rx)
{
    for (;;) {
        ssize_t n = read(g->fd, g->in + g->in_len, IN_CAP - g->in_len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 1;
        if (n < 0) { perror("pacer-gateway: read"); return -1; }
        if (n == 0) return 0;
        g->in_len += (size_t)n;
        *last_rx = now_ms();
        if (!parse_input(g)) return -1;
    }
}

/* ---- connection ------------------------------------------------------------------------- */

static int connect_to(const char *host, const char *port)
{
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "pacer-gateway: %s:%s: %s\n", host, port, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (ai = res; ai != NULL; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        close(fd);
        fd = -1;
    }
    if (fd < 0) fprintf(stderr, "pacer-gateway: cannot connect to %s:%s: %s\n", host, port, strerror(errno));
    freeaddrinfo(res);
    if (fd >= 0) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    return fd;
}

/* Strict decimal parsing: the whole string, no overflow; unsigned refuses a sign. */
static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return *s >= '0' && *s <= '9' && errno == 0 && *end == '\0';
}

static bool parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    *out = strtoll(s, &end, 10);
    return end != s && errno == 0 && *end == '\0';
}

int main(int argc, char **argv)
{
    static struct gateway g;                            /* large buffers: not on the stack */
    uint64_t win_u = 0;
    if ((argc != 6 && argc != 7) || !parse_u64(argv[3], &g.campaign) || !parse_u64(argv[4], &g.count)
        || g.count == 0 || g.count > 100000000 || !parse_i64(argv[5], &g.bid)
        || (argc == 7 && (!parse_u64(argv[6], &win_u) || win_u > INT64_MAX))) {
        fprintf(stderr, "usage: %s HOST PORT CAMPAIGN_ID COUNT BID_CPM_MICROS [WIN_PRICE_CPM_MICROS]\n"
                "  COUNT 1..100000000; WIN_PRICE defaults to the bid, 0 sends LossNotices\n", argv[0]);
        return 2;
    }
    g.win = argc == 7 ? (int64_t)win_u : g.bid;
    if (g.win < 0) g.win = 0;                           /* a non-positive bid is never a BID */
    g.seen = calloc((size_t)g.count + 1, 1);
    if (g.seen == NULL) { perror("pacer-gateway: calloc"); return 2; }
    signal(SIGPIPE, SIG_IGN);                           /* a closed peer is an EPIPE, not death */
    if ((g.fd = connect_to(argv[1], argv[2])) < 0) return 2;
    g.next_id = 1;

    /* Main loop: keep the window full (refilled in batches once half of it is answered),
     * write what the socket takes, read and decode what arrives. */
    bool ok = true;
    int64_t last_rx = now_ms();
    while (ok && g.answered < g.count) {
        if (g.next_id - 1 - g.answered <= WINDOW / 2)
            while (g.next_id <= g.count && g.next_id - 1 - g.answered < WINDOW)
                enqueue_bid_request(&g, g.next_id++);
        if (!flush_out(&g)) { ok = false; break; }

        int64_t left = IDLE_TIMEOUT_MS - (now_ms() - last_rx);
        if (left <= 0) {
            fprintf(stderr, "pacer-gateway: timeout: nothing received for %d ms\n", IDLE_TIMEOUT_MS);
            ok = false;
            break;
        }
        struct pollfd p = { .fd = g.fd, .events = POLLIN };
        if (g.out_head < g.out_tail) p.events |= POLLOUT;
        int rc = poll(&p, 1, (int)left);
        if (rc < 0 && errno != EINTR) { perror("pacer-gateway: poll"); ok = false; }
        if (rc <= 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        int r = read_input(&g, &last_rx);
        if (r == 0) fprintf(stderr, "pacer-gateway: connection closed by the pacer\n");
        if (r <= 0) ok = false;
    }

    /* Settle: write the last notices, half-close, and drain until EOF (or DRAIN_MS) so that
     * an Error about our notices is still seen. */
    if (ok) {
        int64_t deadline = now_ms() + IDLE_TIMEOUT_MS;
        while (ok && g.out_head < g.out_tail && now_ms() < deadline) {
            struct pollfd p = { .fd = g.fd, .events = POLLOUT };
            poll(&p, 1, 100);
            ok = flush_out(&g);
        }
        if (g.out_head < g.out_tail)
            fprintf(stderr, "pacer-gateway: %zu notice bytes left unsent\n", g.out_tail - g.out_head);
        shutdown(g.fd, SHUT_WR);
        int64_t drain_end = now_ms() + DRAIN_MS;
        for (int64_t left; ok && (left = drain_end - now_ms()) > 0;) {
            struct pollfd p = { .fd = g.fd, .events = POLLIN };
            if (poll(&p, 1, (int)left) <= 0) break;
            if (read_input(&g, &last_rx) <= 0) break;   /* EOF: the pacer closed its side */
        }
    }
    close(g.fd);

    printf("answered=%" PRIu64 " bid=%" PRIu64 " no_bid=%" PRIu64 " wins_sent=%" PRIu64
           " losses_sent=%" PRIu64 " errors=%" PRIu64 "\n",
           g.answered, g.bids, g.no_bids, g.wins_sent, g.losses_sent, g.errors);
    for (size_t r = 0; r < NELEMS(g.reasons); r++)
        if (g.reasons[r] > 0) {
            if (r < NELEMS(REASONS)) printf("reason[%s]=%" PRIu64 "\n", REASONS[r], g.reasons[r]);
            else printf("reason[%zu]=%" PRIu64 "\n", r, g.reasons[r]);
        }
    free(g.seen);
    return (g.answered == g.count && g.violations == 0) ? 0 : 1;
}
