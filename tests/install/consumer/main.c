/* A C game using the installed collision core, no Lua. */
#include <stdio.h>

#include <cleave/collide.h>
#include <cleave/hit.h>

int main(void) {
    clv_shape blade = clv_shape_capsule(-100, -100, 100, 100, 1);
    clv_shape other = clv_shape_capsule(-100, 100, 100, -100, 1);
    clv_ishape a = {CLV_CIRCLE, 0, 0, 0, 0, 2}, b = {CLV_CIRCLE, 3, 4, 0, 0, 3};
    bool hit = clv_overlap(&blade, &other);
    bool exact = clv_exact_overlap(&a, &b);
    printf("crossing blades overlap: %s; touching circles overlap: %s\n", hit ? "yes" : "no",
           exact ? "yes" : "no");
    clv_arena_def def = clv_default_arena_def();
    clv_arena *arena = clv_arena_create(&def, NULL);
    bool stepped = arena != NULL && clv_arena_step(arena) == CLV_HIT_OK;
    printf("an arena stepped: %s\n", stepped ? "yes" : "no");
    clv_arena_destroy(arena);
    return hit && !exact && stepped ? 0 : 1;
}
