// cpp-httplib 0.11 has no way for a handler to see its connection, so the per-connection loop is ours: it
// mirrors httplib's process_server_socket (keep-alive up to keep_alive_max_count requests, each through
// Server::process_request) with one buffered SocketStream per connection, and records the socket in a
// thread-local Exchange that handlers read.
#include "server/http_connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace receipt::server {

Exchange& current_exchange() {
    thread_local Exchange exchange;
    return exchange;
}

// poll() one fd for `events`, retrying on EINTR. Returns >0 ready, 0 timeout, <0 error.
static int poll_fd(int fd, short events, int timeout_ms) {
    pollfd p{fd, events, 0};
    while (true) {
        const int r = ::poll(&p, 1, timeout_ms);
        if (r < 0 && errno == EINTR) continue;
        if (r > 0 && (p.revents & POLLNVAL)) return -1;
        return r;
    }
}

bool peer_closed(int sock) {
    if (sock < 0) return false;
    pollfd p{sock, static_cast<short>(POLLIN | POLLRDHUP), 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    if (p.revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL)) return true;
    if (p.revents & POLLIN) {
        char c;
        const ssize_t n = ::recv(sock, &c, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n == 0) return true;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return true;
    }
    return false;
}

static void address_of(const sockaddr_storage& addr, std::string& ip, int& port) {
    char buf[INET6_ADDRSTRLEN] = {0};
    if (addr.ss_family == AF_INET) {
        const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
        ::inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
        port = ntohs(a->sin_port);
    } else if (addr.ss_family == AF_INET6) {
        const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
        ::inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof buf);
        port = ntohs(a->sin6_port);
    }
    ip = buf;
}

namespace {

// A blocking socket stream with a read buffer (httplib reads request lines a byte at a time).
class SocketStream final : public httplib::Stream {
  public:
    SocketStream(int sock, int read_timeout_ms, int write_timeout_ms)
        : sock_(sock), read_timeout_ms_(read_timeout_ms), write_timeout_ms_(write_timeout_ms) {}

    bool has_buffered() const { return off_ < len_; }

    bool is_readable() const override { return has_buffered() || poll_fd(sock_, POLLIN, read_timeout_ms_) > 0; }
    bool is_writable() const override { return poll_fd(sock_, POLLOUT, write_timeout_ms_) > 0; }

    ssize_t read(char* ptr, size_t size) override {
        if (has_buffered()) {
            const size_t n = std::min(size, len_ - off_);
            std::memcpy(ptr, buf_.data() + off_, n);
            off_ += n;
            return static_cast<ssize_t>(n);
        }
        if (poll_fd(sock_, POLLIN, read_timeout_ms_) <= 0) return -1;
        if (size >= buf_.size()) return recv_some(ptr, size);
        const ssize_t n = recv_some(buf_.data(), buf_.size());
        if (n <= 0) return n;
        off_ = 0;
        len_ = static_cast<size_t>(n);
        const size_t m = std::min(size, len_);
        std::memcpy(ptr, buf_.data(), m);
        off_ = m;
        return static_cast<ssize_t>(m);
    }

    ssize_t write(const char* ptr, size_t size) override {
        if (!is_writable()) return -1;
        while (true) {
            const ssize_t n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            return n;
        }
    }

    void get_remote_ip_and_port(std::string& ip, int& port) const override {
        sockaddr_storage addr{};
        socklen_t len = sizeof addr;
        if (::getpeername(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) address_of(addr, ip, port);
    }
    void get_local_ip_and_port(std::string& ip, int& port) const override {
        sockaddr_storage addr{};
        socklen_t len = sizeof addr;
        if (::getsockname(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) address_of(addr, ip, port);
    }
    socket_t socket() const override { return sock_; }

  private:
    ssize_t recv_some(char* ptr, size_t size) {
        while (true) {
            const ssize_t n = ::recv(sock_, ptr, size, 0);
            if (n < 0 && errno == EINTR) continue;
            return n;
        }
    }

    int sock_;
    int read_timeout_ms_;
    int write_timeout_ms_;
    std::array<char, 4096> buf_{};
    size_t off_ = 0;
    size_t len_ = 0;
};

}  // namespace

ConnectionServer::ConnectionServer(std::function<void(Exchange&)> on_finish) : on_finish_(std::move(on_finish)) {}

bool ConnectionServer::raise_backlog(int n_backlog) {
    // httplib listens with a backlog of 5, which overflows (and stalls clients for a SYN retry) as soon as
    // a few dozen clients connect at once. listen() on a listening socket updates the backlog.
    const socket_t sock = svr_sock_;
    return sock != INVALID_SOCKET && ::listen(sock, n_backlog) == 0;
}

bool ConnectionServer::process_and_close_socket(socket_t sock) {
    const int read_timeout_ms = static_cast<int>(read_timeout_sec_ * 1000 + read_timeout_usec_ / 1000);
    const int write_timeout_ms = static_cast<int>(write_timeout_sec_ * 1000 + write_timeout_usec_ / 1000);
    SocketStream strm(sock, read_timeout_ms, write_timeout_ms);
    auto stopping = [this] { return svr_sock_ == INVALID_SOCKET; };

    // Waits for the next request: true when bytes arrived, false on idle timeout, peer close or shutdown.
    // The first request of a connection is awaited even during shutdown (it was accepted before the listener
    // closed), but only briefly.
    auto await_request = [&](bool first) {
        const auto t_end = std::chrono::steady_clock::now() + std::chrono::seconds(keep_alive_timeout_sec_);
        const auto t_end_stopping = std::chrono::steady_clock::now() + shutdown_first_request_timeout_;
        while (true) {
            if (strm.has_buffered()) return true;
            if (stopping() && (!first || std::chrono::steady_clock::now() >= t_end_stopping)) return false;
            const int r = poll_fd(sock, POLLIN, 50);
            if (r < 0) return false;
            if (r > 0) return true;
            if (std::chrono::steady_clock::now() >= t_end) return false;
        }
    };

    bool ret = false;
    size_t n_left = keep_alive_max_count_;
    bool first = true;
    while (n_left > 0 && await_request(first)) {
        const bool close_connection = n_left == 1 || stopping();
        bool connection_closed = false;
        Exchange& ex = current_exchange();
        ex = Exchange{};
        ex.socket = sock;
        ret = process_request(strm, close_connection, connection_closed, [](httplib::Request& req) {
            Exchange& e = current_exchange();
            e.active = true;
            e.t_start = std::chrono::steady_clock::now();
            e.method = req.method;
            e.path = req.path;
        });
        if (ex.active && on_finish_) on_finish_(ex);
        const bool close_after = ex.close_connection;
        ex = Exchange{};
        if (!ret || connection_closed || close_after) break;
        --n_left;
        first = false;
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ret;
}

}  // namespace receipt::server
