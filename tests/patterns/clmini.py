"""The few OpenCL calls patterns.py makes, through ctypes and the system's libOpenCL.so.1:
no binding to install, so the same script runs wherever an OpenCL loader and numpy are."""
import ctypes as C
import os

import numpy as np

_cl = C.CDLL("libOpenCL.so.1")
_ptr = C.c_void_p
_size = C.c_size_t
_err = C.c_int32
MEM_READ_WRITE, MEM_COPY_HOST_PTR = 1 << 0, 1 << 5
DEVICE_TYPE_ALL = 0xFFFFFFFF
PROGRAM_BUILD_LOG = 0x1183
PLATFORM_NAME = 0x0902


def _sig(name, restype, *argtypes):
    f = getattr(_cl, name)
    f.restype, f.argtypes = restype, list(argtypes)
    return f


_GetPlatformIDs = _sig("clGetPlatformIDs", _err, C.c_uint32, C.POINTER(_ptr), C.POINTER(C.c_uint32))
_PlatformInfo = _sig("clGetPlatformInfo", _err, _ptr, C.c_uint32, _size, _ptr, C.POINTER(_size))
_GetDeviceIDs = _sig("clGetDeviceIDs", _err, _ptr, C.c_uint64, C.c_uint32, C.POINTER(_ptr), C.POINTER(C.c_uint32))
_CreateContext = _sig("clCreateContext", _ptr, _ptr, C.c_uint32, C.POINTER(_ptr), _ptr, _ptr, C.POINTER(_err))
_CreateQueue = _sig("clCreateCommandQueue", _ptr, _ptr, _ptr, C.c_uint64, C.POINTER(_err))
_CreateProgram = _sig("clCreateProgramWithSource", _ptr, _ptr, C.c_uint32, C.POINTER(C.c_char_p), C.POINTER(_size), C.POINTER(_err))
_BuildProgram = _sig("clBuildProgram", _err, _ptr, C.c_uint32, C.POINTER(_ptr), C.c_char_p, _ptr, _ptr)
_BuildInfo = _sig("clGetProgramBuildInfo", _err, _ptr, _ptr, C.c_uint32, _size, _ptr, C.POINTER(_size))
_CreateKernel = _sig("clCreateKernel", _ptr, _ptr, C.c_char_p, C.POINTER(_err))
_SetArg = _sig("clSetKernelArg", _err, _ptr, C.c_uint32, _size, _ptr)
_CreateBuffer = _sig("clCreateBuffer", _ptr, _ptr, C.c_uint64, _size, _ptr, C.POINTER(_err))
_Enqueue = _sig("clEnqueueNDRangeKernel", _err, _ptr, _ptr, C.c_uint32, C.POINTER(_size), C.POINTER(_size), C.POINTER(_size), C.c_uint32, _ptr, _ptr)
_Fill = _sig("clEnqueueFillBuffer", _err, _ptr, _ptr, _ptr, _size, _size, _size, C.c_uint32, _ptr, _ptr)
_Read = _sig("clEnqueueReadBuffer", _err, _ptr, _ptr, C.c_uint32, _size, _size, _ptr, C.c_uint32, _ptr, _ptr)
_Finish = _sig("clFinish", _err, _ptr)
_Release = {t: _sig("clRelease" + t, _err, _ptr) for t in ("MemObject", "Kernel", "Program", "CommandQueue", "Context")}


class CLError(RuntimeError):
    pass


def platform_name(platform):
    name = C.create_string_buffer(256)
    _PlatformInfo(platform, PLATFORM_NAME, 256, name, None)
    return name.value.decode(errors="replace")


def check(err, what):
    if err != 0:
        raise CLError("%s failed (%d)" % (what, err))


class Local:
    """A __local argument of `nbytes`."""

    def __init__(self, nbytes):
        self.nbytes = nbytes


class Buffer:
    def __init__(self, handle, nbytes):
        self.handle, self.nbytes = _ptr(handle), nbytes


class Device:
    """The first device of the first platform (PATTERNS_PLATFORM=TEXT: of the first whose
    name holds TEXT): a context and an in-order queue on it. PATTERNS_CONTEXT=all: the
    context (and every build) holds all the platform's devices."""

    def __init__(self):
        n = C.c_uint32()
        check(_GetPlatformIDs(0, None, C.byref(n)), "clGetPlatformIDs")
        plats = (_ptr * n.value)()
        check(_GetPlatformIDs(n.value, plats, None), "clGetPlatformIDs")
        want = os.environ.get("PATTERNS_PLATFORM", "")
        plat = next((p for p in plats if want in platform_name(p)), None)
        if plat is None:
            raise CLError("no platform named like '%s'" % want)
        ndev = C.c_uint32()
        check(_GetDeviceIDs(plat, DEVICE_TYPE_ALL, 0, None, C.byref(ndev)), "clGetDeviceIDs")
        devs = (_ptr * ndev.value)()
        check(_GetDeviceIDs(plat, DEVICE_TYPE_ALL, ndev.value, devs, None), "clGetDeviceIDs")
        dev = _ptr(devs[0])
        self.device = dev
        nctx = ndev.value if os.environ.get("PATTERNS_CONTEXT") == "all" else 1
        self.ctx_devices, self.nctx = devs, nctx
        err = _err()
        self.ctx = _CreateContext(None, nctx, devs, None, None, C.byref(err))
        check(err.value, "clCreateContext")
        self.queue = _CreateQueue(self.ctx, dev, 0, C.byref(err))
        check(err.value, "clCreateCommandQueue")
        self.objects = []

    def program(self, source, options=""):
        err = _err()
        src = C.c_char_p(source.encode())
        prog = _CreateProgram(self.ctx, 1, C.byref(src), None, C.byref(err))
        check(err.value, "clCreateProgramWithSource")
        self.objects.append(("Program", prog))
        if _BuildProgram(prog, self.nctx, self.ctx_devices, options.encode(), None, None) != 0:
            size = _size()
            _BuildInfo(prog, self.device, PROGRAM_BUILD_LOG, 0, None, C.byref(size))
            log = C.create_string_buffer(size.value + 1)
            _BuildInfo(prog, self.device, PROGRAM_BUILD_LOG, size.value, log, None)
            raise CLError("clBuildProgram failed: " + log.value.decode(errors="replace")[:300])
        return prog

    def kernel(self, prog, name):
        err = _err()
        k = _CreateKernel(prog, name.encode(), C.byref(err))
        check(err.value, "clCreateKernel " + name)
        self.objects.append(("Kernel", k))
        return k

    def buffer(self, array):
        err = _err()
        array = np.ascontiguousarray(array)
        h = _CreateBuffer(self.ctx, MEM_READ_WRITE | MEM_COPY_HOST_PTR, array.nbytes,
                          array.ctypes.data_as(_ptr), C.byref(err))
        check(err.value, "clCreateBuffer")
        self.objects.append(("MemObject", h))
        return Buffer(h, array.nbytes)

    def launch(self, kernel, gsize, lsize, args, offset=None):
        for i, a in enumerate(args):
            if isinstance(a, Buffer):
                e = _SetArg(kernel, i, C.sizeof(_ptr), C.byref(a.handle))
            elif isinstance(a, Local):
                e = _SetArg(kernel, i, a.nbytes, None)
            else:  # a numpy scalar
                v = np.array(a)
                e = _SetArg(kernel, i, v.nbytes, v.ctypes.data_as(_ptr))
            check(e, "clSetKernelArg %d" % i)
        dims = len(gsize)
        g = (_size * dims)(*gsize)
        l = (_size * dims)(*lsize) if lsize else None
        o = (_size * dims)(*offset) if offset else None
        check(_Enqueue(self.queue, kernel, dims, o, g, l, 0, None, None), "clEnqueueNDRangeKernel")

    def fill(self, buf, byte):
        """clEnqueueFillBuffer of one byte over the whole buffer."""
        v = np.array(byte, dtype=np.uint8)
        check(_Fill(self.queue, buf.handle, v.ctypes.data_as(_ptr), 1, 0, buf.nbytes, 0, None, None),
              "clEnqueueFillBuffer")

    def read(self, buf):
        host = np.empty(buf.nbytes, dtype=np.uint8)
        check(_Read(self.queue, buf.handle, 1, 0, buf.nbytes, host.ctypes.data_as(_ptr), 0, None, None),
              "clEnqueueReadBuffer")
        return host

    def finish(self):
        check(_Finish(self.queue), "clFinish")

    def release(self):
        for kind, h in reversed(self.objects):
            _Release[kind](h)
        self.objects = []

    def close(self):
        self.release()
        _Release["CommandQueue"](self.queue)
        _Release["Context"](self.ctx)
