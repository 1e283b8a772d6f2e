//! `index.html`'s entry point: the lesson (see `pages::lesson`).

fn main() {
    parallel_web::pages::start(
        parallel_core::link::Entry::Lesson,
        parallel_web::pages::lesson::LessonPage,
    );
}
