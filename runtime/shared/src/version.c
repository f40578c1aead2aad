#include "cleave/version.h"

#include <string.h>

#include "cleave/hit.h"
#include "cleave/mod.h"

const char *clv_version(void) { return CLEAVE_VERSION; }

int clv_abi_version(void) { return CLV_ABI_VERSION; }

/* The types a binding reads or writes field by field. */
#define CLV_SIZE(type)                                                                             \
    { #type, sizeof(type) }
static const struct {
    const char *name;
    size_t size;
} abi_sizes[] = {
    CLV_SIZE(clv_shape),           CLV_SIZE(clv_closest),          CLV_SIZE(clv_contact),
    CLV_SIZE(clv_ray_hit),         CLV_SIZE(clv_ishape),           CLV_SIZE(clv_allocator),
    CLV_SIZE(clv_hit_diag),        CLV_SIZE(clv_entity_id),        CLV_SIZE(clv_attack_id),
    CLV_SIZE(clv_weapon_id),       CLV_SIZE(clv_arena_def),        CLV_SIZE(clv_entity_def),
    CLV_SIZE(clv_entity_info),     CLV_SIZE(clv_attack_start_def), CLV_SIZE(clv_attack_info),
    CLV_SIZE(clv_hit_event),       CLV_SIZE(clv_miss_record),      CLV_SIZE(clv_tick_event),
    CLV_SIZE(clv_hitbox_def),      CLV_SIZE(clv_attack_def),       CLV_SIZE(clv_mod_limits),
    CLV_SIZE(clv_clash_event),     CLV_SIZE(clv_projectile_def),   CLV_SIZE(clv_projectile_event),
    CLV_SIZE(clv_projectile_info),
};

size_t clv_abi_sizeof(const char *type_name) {
    for (size_t i = 0; type_name != NULL && i < sizeof abi_sizes / sizeof abi_sizes[0]; i++) {
        if (strcmp(abi_sizes[i].name, type_name) == 0) {
            return abi_sizes[i].size;
        }
    }
    return 0;
}
