//! What every page starts from and keeps: the link read and kept in step with the address
//! ([`permalink`]), where a link lands ([`landing`]), the page's state and both grids' labs
//! ([`start`], [`lab`]), the parts drawn after the first frame ([`later`]), scrolling
//! ([`scroll`]), the offline copy ([`offline`]) and rendering without a browser ([`prerender`]).

pub mod lab;
pub mod landing;
pub mod later;
pub mod offline;
pub mod permalink;
pub mod prerender;
pub mod scroll;
pub mod split;
pub mod start;
