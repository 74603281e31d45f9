/** Section colours of the mesh view (the 3D scene and the facts' swatches): distinct hues, light enough to read shading on. */
export const SECTION_COLOURS = ['#e0785a', '#5aa0e0', '#7ec46a', '#d8b84a', '#b07ad8', '#4ac4b8', '#e07ab4', '#a0a0a0'];
