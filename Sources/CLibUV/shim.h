#ifndef LIFESIGNAL_CLIBUV_SHIM_H
#define LIFESIGNAL_CLIBUV_SHIM_H
#include <uv.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

// Casts from the raw handle memory LifeSignalUV allocates. libuv's handle
// structs all start with the uv_handle_t fields, so these are the casts
// libuv's own API expects; doing them in C keeps Swift free of pointer punning.
static inline uv_handle_t *_Nonnull ls_handle(void *_Nonnull h) { return (uv_handle_t *)h; }
static inline uv_req_t *_Nonnull ls_req(void *_Nonnull r) { return (uv_req_t *)r; }
static inline uv_stream_t *_Nonnull ls_stream(void *_Nonnull h) { return (uv_stream_t *)h; }
static inline uv_tcp_t *_Nonnull ls_tcp(void *_Nonnull h) { return (uv_tcp_t *)h; }
static inline uv_timer_t *_Nonnull ls_timer(void *_Nonnull h) { return (uv_timer_t *)h; }
static inline uv_signal_t *_Nonnull ls_signal(void *_Nonnull h) { return (uv_signal_t *)h; }
static inline uv_async_t *_Nonnull ls_async(void *_Nonnull h) { return (uv_async_t *)h; }
static inline uv_prepare_t *_Nonnull ls_prepare(void *_Nonnull h) { return (uv_prepare_t *)h; }

static inline const struct sockaddr *_Nonnull ls_sockaddr(const struct sockaddr_storage *_Nonnull ss) {
    return (const struct sockaddr *)ss;
}

// Parses an IPv4 or IPv6 literal ("127.0.0.1", "::1"); "localhost" means 127.0.0.1.
// Returns 0 or a negative libuv error code.
static inline int ls_parse_address(const char *host, int port, struct sockaddr_storage *out) {
    memset(out, 0, sizeof(*out));
    if (strcmp(host, "localhost") == 0) host = "127.0.0.1";
    if (strchr(host, ':') != NULL) return uv_ip6_addr(host, port, (struct sockaddr_in6 *)out);
    return uv_ip4_addr(host, port, (struct sockaddr_in *)out);
}

// "127.0.0.1:54321" or "[::1]:54321". Returns 0 or a negative libuv error code.
static inline int ls_format_address(const struct sockaddr_storage *ss, char *out, size_t cap) {
    char ip[64];
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
        int rc = uv_ip4_name(a, ip, sizeof(ip));
        if (rc != 0) return rc;
        snprintf(out, cap, "%s:%u", ip, (unsigned)ntohs(a->sin_port));
        return 0;
    }
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
        int rc = uv_ip6_name(a, ip, sizeof(ip));
        if (rc != 0) return rc;
        snprintf(out, cap, "[%s]:%u", ip, (unsigned)ntohs(a->sin6_port));
        return 0;
    }
    return UV_EAFNOSUPPORT;
}

// An address without its port as 16 bytes of IPv6 form (IPv4 as ::ffff:a.b.c.d).
// Returns 0, or UV_EAFNOSUPPORT for another family.
static inline int ls_address_bytes(const struct sockaddr_storage *ss, unsigned char out[16]) {
    if (ss->ss_family == AF_INET) {
        memset(out, 0, 10);
        out[10] = 0xff;
        out[11] = 0xff;
        memcpy(out + 12, &((const struct sockaddr_in *)ss)->sin_addr, 4);
        return 0;
    }
    if (ss->ss_family == AF_INET6) {
        memcpy(out, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
        return 0;
    }
    return UV_EAFNOSUPPORT;
}

// The inverse of ls_address_bytes with a port: ::ffff:a.b.c.d becomes an IPv4 address.
static inline void ls_address_from_bytes(const unsigned char bytes[16], int port, struct sockaddr_storage *ss) {
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    memset(ss, 0, sizeof(*ss));
    if (memcmp(bytes, mapped, 12) == 0) {
        struct sockaddr_in *a = (struct sockaddr_in *)ss;
        a->sin_family = AF_INET;
        a->sin_port = htons((unsigned short)port);
        memcpy(&a->sin_addr, bytes + 12, 4);
    } else {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((unsigned short)port);
        memcpy(&a->sin6_addr, bytes, 16);
    }
}

static inline int ls_port(const struct sockaddr_storage *ss) {
    if (ss->ss_family == AF_INET) return ntohs(((const struct sockaddr_in *)ss)->sin_port);
    if (ss->ss_family == AF_INET6) return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
    return -1;
}

// uv_tcp_bind, but reporting EADDRINUSE now: libuv defers it to the next listen/connect
// (stream->delayed_error), which would name the wrong operation.
static inline int ls_tcp_bind(uv_tcp_t *tcp, const struct sockaddr *addr, unsigned int flags) {
    int rc = uv_tcp_bind(tcp, addr, flags);
    if (rc != 0) return rc;
    return tcp->delayed_error;
}

// setsockopt on a handle's socket (which must exist: uv_tcp_init_ex with a family).
static inline int ls_set_socket_flag(uv_tcp_t *tcp, int level, int option) {
    uv_os_fd_t fd;
    int rc = uv_fileno((const uv_handle_t *)tcp, &fd);
    if (rc != 0) return rc;
    int on = 1;
    if (setsockopt(fd, level, option, &on, sizeof(on)) != 0) return -errno;
    return 0;
}

static inline int ls_set_reuseaddr(uv_tcp_t *tcp) { return ls_set_socket_flag(tcp, SOL_SOCKET, SO_REUSEADDR); }
static inline int ls_set_reuseport(uv_tcp_t *tcp) { return ls_set_socket_flag(tcp, SOL_SOCKET, SO_REUSEPORT); }

// Names the calling thread for debuggers (Linux keeps the first 15 bytes).
static inline void ls_set_thread_name(const char *name) {
#if defined(__linux__)
    prctl(PR_SET_NAME, name, 0, 0, 0);
#elif defined(__APPLE__)
    pthread_setname_np(name);
#endif
}

#endif
