/* libskmd/support/registry.h: the set of live cl_mem and cl_sampler handles (to recognise
 * them among kernel arguments given as bytes). */
#ifndef SKMD_REGISTRY_H
#define SKMD_REGISTRY_H

void skmd_registry_add(const void *handle);
void skmd_registry_remove(const void *handle);
int skmd_registry_has(const void *handle);

#endif
