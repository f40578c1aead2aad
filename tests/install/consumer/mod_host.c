/* A C game hosting a weapon mod with the installed cleave::lua: it loads the mod folder given
 * on the command line, swings its first weapon's "swing" at a dummy and prints each hit. */
#include <stdio.h>

#include <cleave/hit.h>
#include <cleave/mod.h>

static clv_entity_id spawn(clv_arena *arena, float x, float y, int32_t team) {
    clv_entity_def d = clv_default_entity_def();
    d.position = clv_v2(x, y);
    d.team = team;
    clv_entity_id id = {0};
    if (clv_arena_spawn(arena, &d, &id, NULL) != CLV_HIT_OK) {
        fprintf(stderr, "mod_host: spawn failed\n");
    }
    return id;
}

/* Prints the frame's hits, frames 1-based as the mod writes them. */
static int print_hits(const clv_arena *arena) {
    int32_t n = 0;
    const clv_hit_event *hits = clv_arena_hits(arena, &n);
    for (int32_t i = 0; i < n; i++) {
        const clv_hit_event *h = &hits[i];
        const clv_hitbox_def *box =
            clv_arena_hitbox(arena, h->weapon, h->attack_index, h->attack_frame, h->hitbox);
        printf("hit: attack frame %d, hitbox %s, damage %g\n", (int)h->attack_frame + 1,
               box ? box->id : "?", (double)h->damage);
    }
    return (int)n;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: mod_host MOD_FOLDER\n");
        return 2;
    }
    char err[1024] = "";
    clv_mod *mod = clv_mod_load(argv[1], err, sizeof err);
    if (mod == NULL) {
        fprintf(stderr, "mod_host: %s\n", err);
        return 1;
    }
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id weapon;
    int hits = 0;
    if (arena != NULL && clv_mod_add_weapons(mod, arena, &weapon, err, sizeof err)) {
        clv_attack_start_def start = clv_default_attack_start_def();
        start.weapon = weapon;
        start.attack = clv_arena_find_attack(arena, weapon, "swing");
        start.owner = spawn(arena, 0, 0, 1);
        spawn(arena, 40, -25, 2);
        printf("mod %s %s, weapon %s\n", clv_mod_name(mod), clv_mod_version(mod),
               clv_mod_weapon_name(mod, 0));
        if (start.attack >= 0 && clv_arena_start_attack(arena, &start, NULL, NULL) == CLV_HIT_OK) {
            for (int f = 0; f < 30 && clv_arena_step(arena) == CLV_HIT_OK; f++) {
                hits += print_hits(arena);
                if (!clv_mod_run_callbacks(mod, arena, err, sizeof err)) {
                    fprintf(stderr, "mod_host: %s\n", err);
                }
            }
        }
    } else {
        fprintf(stderr, "mod_host: %s\n", arena ? err : "no arena");
    }
    clv_arena_destroy(arena);
    clv_mod_free(mod);
    return hits > 0 ? 0 : 1;
}
