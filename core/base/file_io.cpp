#include "core/base/file_io.h"

#include "core/base/errors.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace zp {

std::string read_text_file(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw InputError(path + ": no such file");
    if (fs::is_directory(st)) throw InputError(path + ": is a directory, not a file");
    // A device, pipe or socket (/dev/zero, /dev/stdin) could never end: only regular files.
    if (!fs::is_regular_file(st)) throw InputError(path + ": is not a regular file");
    const auto size = fs::file_size(path, ec);
    if (!ec && size > kMaxInputFileBytes)
        throw InputError(path + ": is larger than " + std::to_string(kMaxInputFileBytes / (1024 * 1024)) +
                         " MiB; a config or session is kilobytes, and of a long training log the planner needs its start (the "
                         "config DeepSpeed prints) and the lines around the error or the throughput: keep those (head -c 8M, tail -c 8M)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot be read: " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw InputError(path + ": cannot be read: " + std::strerror(errno));
    std::string bytes = text.str();
    if (is_utf16(bytes))
        throw InputError(path +
                         ": is UTF-16 text (what Windows PowerShell's > and Out-File write); save it as UTF-8, e.g. "
                         "iconv -f UTF-16 -t UTF-8, or Out-File -Encoding utf8");
    return bytes;
}

bool is_utf16(std::string_view bytes) {
    if (bytes.size() >= 2 && ((bytes[0] == '\xFF' && bytes[1] == '\xFE') || (bytes[0] == '\xFE' && bytes[1] == '\xFF'))) return true;
    // Without a byte-order mark: ASCII text as UTF-16 has a NUL beside every character.
    if (bytes.size() < 4) return false;
    const bool little = bytes[0] != '\0' && bytes[1] == '\0' && bytes[2] != '\0' && bytes[3] == '\0';
    const bool big = bytes[0] == '\0' && bytes[1] != '\0' && bytes[2] == '\0' && bytes[3] != '\0';
    return little || big;
}

void write_file_atomically(const std::string& path, const std::string& content) {
    namespace fs = std::filesystem;
    if (path.empty()) throw InputError("no file name to write to: give the output a name (-o FILE)");
    const fs::path target(path);
    if (fs::is_directory(target)) throw InputError(path + ": is a directory");
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string tmpl = (dir / (target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) throw InputError(path + ": cannot write: " + std::strerror(errno));
    const auto fail = [&](const char* what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmpl.c_str());
        throw InputError(path + ": cannot write (" + what + "): " + std::strerror(err));
    };
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("write");
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) fail("fsync");
    ::fchmod(fd, 0644);
    if (::close(fd) != 0) {
        ::unlink(tmpl.c_str());
        throw InputError(path + ": cannot write (close): " + std::strerror(errno));
    }
    if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        throw InputError(path + ": cannot write (rename): " + std::strerror(err));
    }
}

}  // namespace zp
