package sandbox

import (
	"errors"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter is a deny list on top of the namespaces: it refuses system
// calls a test program never needs and that widen the kernel attack surface
// (tracing, mounting, modules, new namespaces, BPF, kexec, keyrings, io_uring),
// and IPv4/IPv6/packet sockets. Everything else is allowed.

// deniedSyscalls fail with EPERM (x86-64 numbers).
var deniedSyscalls = []uint32{
	unix.SYS_PTRACE, unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_ACCT,
	unix.SYS_SETNS, unix.SYS_UNSHARE, unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_OPEN_BY_HANDLE_AT,
	unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_SETTIMEOFDAY,
	unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME, unix.SYS_ADJTIMEX, unix.SYS_SETHOSTNAME,
	unix.SYS_SETDOMAINNAME, unix.SYS_FSOPEN, unix.SYS_FSMOUNT, unix.SYS_FSCONFIG, unix.SYS_FSPICK,
	unix.SYS_OPEN_TREE, unix.SYS_MOVE_MOUNT, unix.SYS_MOUNT_SETATTR, unix.SYS_LOOKUP_DCOOKIE,
	unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_QUOTACTL, unix.SYS_SYSLOG,
}

// enosysSyscalls fail with ENOSYS so that libraries fall back (glibc retries
// clone3 as clone, where the namespace flags can be inspected).
var enosysSyscalls = []uint32{
	unix.SYS_CLONE3, unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
}

const nsCloneFlags = unix.CLONE_NEWNS | unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP

func bpfStmt(code uint16, k uint32) unix.SockFilter {
	return unix.SockFilter{Code: code, K: k}
}

func bpfJump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

// seccompProgram builds the classic BPF program.
func seccompProgram() []unix.SockFilter {
	const (
		ldW   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jset  = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		offNr = 0  // offsetof(struct seccomp_data, nr)
		offAr = 4  // arch
		offA0 = 16 // args[0], low 32 bits on little endian
	)
	allow := bpfStmt(ret, unix.SECCOMP_RET_ALLOW)
	eperm := bpfStmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	eacces := bpfStmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
	enosys := bpfStmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))

	p := []unix.SockFilter{
		bpfStmt(ldW, offAr),
		bpfJump(jeq, unix.AUDIT_ARCH_X86_64, 1, 0),
		eperm, // i386 / foreign ABI: refuse everything
		bpfStmt(ldW, offNr),
		bpfJump(jge, 0x40000000, 0, 1), // x32 ABI
		eperm,
	}
	for _, nr := range deniedSyscalls {
		p = append(p, bpfJump(jeq, nr, 0, 1), eperm)
	}
	for _, nr := range enosysSyscalls {
		p = append(p, bpfJump(jeq, nr, 0, 1), enosys)
	}
	// clone(flags, ...): refuse namespace creation.
	p = append(p,
		bpfJump(jeq, unix.SYS_CLONE, 0, 4),
		bpfStmt(ldW, offA0),
		bpfJump(jset, nsCloneFlags, 0, 1),
		eperm,
		allow,
	)
	// socket(domain, ...): refuse IPv4, IPv6 and packet sockets.
	p = append(p,
		bpfJump(jeq, unix.SYS_SOCKET, 0, 6),
		bpfStmt(ldW, offA0),
		bpfJump(jeq, unix.AF_INET, 3, 0),
		bpfJump(jeq, unix.AF_INET6, 2, 0),
		bpfJump(jeq, unix.AF_PACKET, 1, 0),
		allow,
		eacces,
	)
	return append(p, allow)
}

// installSeccomp sets no_new_privs and the filter on the calling OS thread
// (the caller must hold runtime.LockOSThread and fork from this thread).
func installSeccomp() error {
	if runtime.GOARCH != "amd64" {
		return errors.New("seccomp filter only built for amd64")
	}
	prog := seccompProgram()
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER,
		uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	return nil
}
