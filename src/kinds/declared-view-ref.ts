/**
 * DeclaredViewRef is a view some manifest declares, as the pins see it after apply.
 * Its own module: view identity yields these, the pinned-views kind reads them and the
 * kind interface passes them along, and none of the three should import another for it.
 */
export interface DeclaredViewRef {
  name: string;
  /** The bound live view, or null for a view this plan creates. */
  viewId: string | null;
  /**
   * The id the manifest binds when it was deleted in the app (the sweep memory saw it
   * live and public): the view is created again or resolved by name, and a `{viewId}`
   * tab naming the old id means it.
   */
  formerViewId?: string;
}

/**
 * HeldViewRef is a declared view the plan holds (its bound id is gone live, or it is
 * created while \`creatorEmail\` is not active): a pinned list naming it, by its name or
 * its id, is held with it.
 */
export interface HeldViewRef {
  name: string;
  /** The id the manifest binds, or null for a view the plan would create. */
  viewId: string | null;
  /** The held view's target, which the held list's reason names. */
  target: string;
}
