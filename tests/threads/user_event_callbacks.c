/* tests/threads/user_event_callbacks.c: callbacks on the app's user events while another
 * thread sets them. 3000 rounds: a user event is set (to CL_COMPLETE or to an error, in
 * turn) by a second thread while the main thread registers three CL_COMPLETE callbacks on
 * it; every callback must run exactly once, with the status that was set. Prints
 * a PASS line and exits 0 when all did (libskmd calls these callbacks itself:
 * libskmd/device/user_event_callbacks.c). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#define ROUNDS 3000
#define PER_ROUND 3

struct round {
    cl_event event;
    cl_int status;  /* what the setter sets */
    atomic_int calls, wrong;
};

static void CL_CALLBACK on_complete(cl_event event, cl_int status, void *data)
{
    struct round *r = data;
    atomic_fetch_add(&r->calls, 1);
    if (event != r->event || status != r->status)
        atomic_fetch_add(&r->wrong, 1);
}

static void *setter(void *arg)
{
    struct round *r = arg;
    clSetUserEventStatus(r->event, r->status);
    return NULL;
}

int main(void)
{
    static struct round rounds[ROUNDS];
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context ctx = err == CL_SUCCESS ? clCreateContext(NULL, 1, &device, NULL, NULL, &err)
                                       : NULL;
    if (!ctx) {
        printf("FAIL user-event-callbacks: no context (%d)\n", err);
        return 1;
    }
    for (int i = 0; i < ROUNDS; i++) {
        struct round *r = &rounds[i];
        r->status = i % 2 ? CL_COMPLETE : -7;
        r->event = clCreateUserEvent(ctx, &err);
        pthread_t t;
        if (!r->event || pthread_create(&t, NULL, setter, r) != 0) {
            printf("FAIL user-event-callbacks: round %d: no user event or thread (%d)\n", i, err);
            return 1;
        }
        for (int k = 0; k < PER_ROUND; k++)
            if (clSetEventCallback(r->event, CL_COMPLETE, on_complete, r) != CL_SUCCESS) {
                printf("FAIL user-event-callbacks: round %d: clSetEventCallback failed\n", i);
                return 1;
            }
        pthread_join(t, NULL);
    }
    /* A driver may call callbacks on a thread of its own: give them a second. */
    int calls = 0, wrong = 0, short_rounds = 0;
    for (int spin = 0; spin < 1000; spin++) {
        calls = wrong = short_rounds = 0;
        for (int i = 0; i < ROUNDS; i++) {
            calls += atomic_load(&rounds[i].calls);
            wrong += atomic_load(&rounds[i].wrong);
            short_rounds += atomic_load(&rounds[i].calls) != PER_ROUND;
        }
        if (calls >= ROUNDS * PER_ROUND)
            break;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    for (int i = 0; i < ROUNDS; i++)
        clReleaseEvent(rounds[i].event);
    clReleaseContext(ctx);
    if (short_rounds || wrong) {
        printf("FAIL user-event-callbacks: %d callbacks of %d, %d rounds not called %d "
               "times, %d with a wrong event or "
               "status\n", calls, ROUNDS * PER_ROUND, short_rounds, PER_ROUND, wrong);
        return 1;
    }
    printf("PASS user-event-callbacks: %d callbacks, each once with the status set\n", calls);
    return 0;
}
