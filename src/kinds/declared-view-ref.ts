/**
 * DeclaredViewRef is a view some manifest declares, as the pins see it after apply.
 * Its own module: view identity yields these, the pinned-views kind reads them and the
 * kind interface passes them along, and none of the three should import another for it.
 */
export interface DeclaredViewRef {
  name: string;
  /** The bound live view, or null for a view this plan creates. */
  viewId: string | null;
}
