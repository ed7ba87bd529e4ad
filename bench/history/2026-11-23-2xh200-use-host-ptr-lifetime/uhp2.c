/* Next questions about NVIDIA's page-locking of CL_MEM_USE_HOST_PTR memory:
 *  1. freed and re-malloc'd at the same address: does a transfer from it read the new bytes?
 *  2. one wrapper per GPU context (two contexts): both pinned-rate? does the second wrap fail?
 *  3. does a wrapper take device memory (nvidia-smi before/after, printed by the caller)?
 * Usage: uhp2 MIB [pause]   (pause: sleep 5 s after making 8 wrappers, for nvidia-smi) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
#define CK(e) do{cl_int _e=(e); if(_e){fprintf(stderr,"%s:%d err %d\n",__FILE__,__LINE__,_e);exit(1);}}while(0)
static double rate(cl_command_queue q, cl_mem dev, void *p, size_t n, int write){
  double best=1e9; for(int r=0;r<5;r++){double t0=now();
    CK(write?clEnqueueWriteBuffer(q,dev,CL_TRUE,0,n,p,0,NULL,NULL):clEnqueueReadBuffer(q,dev,CL_TRUE,0,n,p,0,NULL,NULL));
    double t=now()-t0; if(t<best)best=t;} return n/best/1e6; }
int main(int argc,char**argv){
  size_t n=(size_t)(argc>1?atoi(argv[1]):64)<<20; int pause=argc>2;
  cl_platform_id ps[8]; cl_uint np; CK(clGetPlatformIDs(8,ps,&np));
  cl_device_id d[2]; cl_uint nd=0;
  for(cl_uint i=0;i<np&&!nd;i++) if(clGetDeviceIDs(ps[i],CL_DEVICE_TYPE_GPU,2,d,&nd)) nd=0;
  if(!nd){fprintf(stderr,"no gpu\n");return 1;}
  cl_int e; cl_context c[2]; cl_command_queue q[2]; cl_mem dev[2];
  for(cl_uint i=0;i<nd;i++){ c[i]=clCreateContext(NULL,1,&d[i],NULL,NULL,&e);CK(e);
    q[i]=clCreateCommandQueueWithProperties(c[i],d[i],NULL,&e);CK(e);
    dev[i]=clCreateBuffer(c[i],CL_MEM_READ_WRITE,n,NULL,&e);CK(e); }
  /* 1. Use after free. mmap'd so that the same address comes back on purpose. */
  char *a=mmap(NULL,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0); memset(a,1,n);
  cl_mem w=clCreateBuffer(c[0],CL_MEM_USE_HOST_PTR,n,a,&e);CK(e);
  printf("wrapped: h2d %.1f GB/s\n", rate(q[0],dev[0],a,n,1));
  munmap(a,n);
  char *b=mmap(a,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE,-1,0);
  if(b!=a){printf("could not map the same address again\n");}
  else { memset(b,9,n); printf("after munmap+mmap at the same address: h2d %.1f GB/s\n", rate(q[0],dev[0],b,n,1));
    char *o=malloc(n); memset(o,0,n); CK(clEnqueueReadBuffer(q[0],dev[0],CL_TRUE,0,n,o,0,NULL,NULL));
    printf("the device got the %s bytes\n", o[n/2]==9?"NEW (safe)":o[n/2]==1?"OLD (stale pinned pages!)":"other"); free(o); }
  clReleaseMemObject(w);
  /* 2. Two contexts. */
  char *m=aligned_alloc(4096,n); memset(m,3,n);
  for(cl_uint i=0;i<nd;i++) printf("ctx %u unwrapped h2d %.1f GB/s\n",i,rate(q[i],dev[i],m,n,1));
  cl_mem w2[2]={0};
  for(cl_uint i=0;i<nd;i++){ w2[i]=clCreateBuffer(c[i],CL_MEM_USE_HOST_PTR,n,m,&e); printf("wrap in ctx %u: err %d\n",i,e);
    for(cl_uint j=0;j<nd;j++) printf("  then ctx %u h2d %.1f d2h %.1f GB/s\n",j,rate(q[j],dev[j],m,n,1),rate(q[j],dev[j],m,n,0)); }
  /* 3. Device memory of wrappers. */
  if(pause){ cl_mem ws[8]; char *big[8];
    for(int i=0;i<8;i++){ big[i]=aligned_alloc(4096,n); memset(big[i],0,n); ws[i]=clCreateBuffer(c[0],CL_MEM_USE_HOST_PTR,n,big[i],&e);CK(e);}
    printf("8 wrappers of %zu MiB made: look at nvidia-smi now\n", n>>20); fflush(stdout); sleep(5);
    for(int i=0;i<8;i++) clReleaseMemObject(ws[i]); }
  return 0;
}
