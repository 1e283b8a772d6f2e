//! Charts drawn with plotters on canvases.
