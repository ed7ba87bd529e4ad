/* Does NVIDIA's OpenCL DMA straight from app memory wrapped by a CL_MEM_USE_HOST_PTR buffer? */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
#define CK(e) do{cl_int _e=(e); if(_e){fprintf(stderr,"%s:%d err %d\n",__FILE__,__LINE__,_e);exit(1);}}while(0)
int main(int argc,char**argv){
  size_t mib = argc>1?atoi(argv[1]):64, n=mib<<20; int reps=7;
  cl_platform_id ps[8]; cl_uint np; CK(clGetPlatformIDs(8,ps,&np));
  cl_device_id d=NULL; for(cl_uint i=0;i<np&&!d;i++){ if(clGetDeviceIDs(ps[i],CL_DEVICE_TYPE_GPU,1,&d,NULL)) d=NULL; }
  if(!d){fprintf(stderr,"no gpu\n");return 1;}
  cl_int e; cl_context c=clCreateContext(NULL,1,&d,NULL,NULL,&e); CK(e);
  cl_command_queue q=clCreateCommandQueueWithProperties(c,d,NULL,&e); CK(e);
  cl_mem dev=clCreateBuffer(c,CL_MEM_READ_WRITE,n,NULL,&e); CK(e);
  char *app; if(posix_memalign((void**)&app,4096,n)) return 1; memset(app,1,n);
  char *out; if(posix_memalign((void**)&out,4096,n)) return 1; memset(out,2,n);
  double best;
#define TIME(label, stmt) do{ best=1e9; for(int r=0;r<reps;r++){ double t0=now(); stmt; CK(clFinish(q)); double t=now()-t0; if(t<best)best=t; } \
    printf("%-44s %6zu MiB %8.3f ms %7.2f GB/s\n", label, mib, best, n/best/1e6); }while(0)
  TIME("write from pageable app memory", CK(clEnqueueWriteBuffer(q,dev,CL_TRUE,0,n,app,0,NULL,NULL)));
  TIME("read into pageable app memory", CK(clEnqueueReadBuffer(q,dev,CL_TRUE,0,n,out,0,NULL,NULL)));
  double t0=now();
  cl_mem uh=clCreateBuffer(c,CL_MEM_USE_HOST_PTR|CL_MEM_READ_WRITE,n,app,&e); CK(e);
  printf("create USE_HOST_PTR buffer: %.3f ms\n", now()-t0);
  cl_mem uho=clCreateBuffer(c,CL_MEM_USE_HOST_PTR|CL_MEM_READ_WRITE,n,out,&e); CK(e);
  TIME("write from app memory, wrapped", CK(clEnqueueWriteBuffer(q,dev,CL_TRUE,0,n,app,0,NULL,NULL)));
  TIME("read into app memory, wrapped", CK(clEnqueueReadBuffer(q,dev,CL_TRUE,0,n,out,0,NULL,NULL)));
  TIME("copy wrapped -> device buffer", CK(clEnqueueCopyBuffer(q,uh,dev,0,0,n,0,NULL,NULL)));
  TIME("copy device buffer -> wrapped", CK(clEnqueueCopyBuffer(q,dev,uho,0,0,n,0,NULL,NULL)));
  TIME("map+unmap wrapped for write", {void*p=clEnqueueMapBuffer(q,uh,CL_TRUE,CL_MAP_WRITE,0,n,0,NULL,NULL,&e);CK(e);CK(clEnqueueUnmapMemObject(q,uh,p,0,NULL,NULL));});
  /* Does a copy out of the wrapped buffer see the app's latest bytes (after the map/unmap dance)? */
  memset(app,7,n); void*p=clEnqueueMapBuffer(q,uh,CL_TRUE,CL_MAP_WRITE,0,n,0,NULL,NULL,&e);CK(e); CK(clEnqueueUnmapMemObject(q,uh,p,0,NULL,NULL));
  CK(clEnqueueCopyBuffer(q,uh,dev,0,0,n,0,NULL,NULL)); CK(clEnqueueReadBuffer(q,dev,CL_TRUE,0,n,out,0,NULL,NULL));
  printf("map pointer == app pointer: %s; bytes after map/unmap+copy: %s\n", p==app?"yes":"no", out[n/2]==7?"current":"stale");
  cl_mem pin=clCreateBuffer(c,CL_MEM_ALLOC_HOST_PTR,n,NULL,&e); CK(e);
  void*pp=clEnqueueMapBuffer(q,pin,CL_TRUE,CL_MAP_READ|CL_MAP_WRITE,0,n,0,NULL,NULL,&e);CK(e);
  TIME("write from pinned (ALLOC_HOST_PTR map)", CK(clEnqueueWriteBuffer(q,dev,CL_TRUE,0,n,pp,0,NULL,NULL)));
  TIME("memcpy app -> pinned (1 thread)", memcpy(pp,app,n));
  return 0;
}
