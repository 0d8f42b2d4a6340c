//! `mnklab --screenshot FILE.png`: start the window, let it draw (and analyse) for a moment,
//! write a PNG of the window and exit. For documentation and for CI checks of the real app.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why the screenshot's PNG was not written.
#[derive(Debug, thiserror::Error)]
pub enum ScreenshotError {
    #[error("{0}")]
    Encode(#[from] png::EncodingError),
    #[error(transparent)]
    File(#[from] crate::io::FileError),
}

/// A screenshot to take once the window has drawn 5 frames and `wait` has passed, or, when
/// waiting for analyses, once they have all finished (after at least `min_wait`).
pub struct ScreenshotJob {
    pub path: PathBuf,
    pub frames: u32,
    pub wait: Duration,
    /// With analyses: the picture may be taken this early if every one has finished.
    pub min_wait: Duration,
    started: Instant,
    requested: bool,
    /// Set by the callback: Ok once written, Err with the reason otherwise.
    outcome: Arc<Mutex<Option<Result<(), ScreenshotError>>>>,
}

impl ScreenshotJob {
    pub fn new(path: PathBuf, wait: Duration) -> ScreenshotJob {
        ScreenshotJob {
            path,
            frames: 0,
            wait,
            min_wait: wait,
            started: Instant::now(),
            requested: false,
            outcome: Arc::new(Mutex::new(None)),
        }
    }

    /// The same job, taken as soon as the analyses have finished (`settled` in
    /// [`ScreenshotJob::tick`]) but not before `min_wait`, and at `wait` at the latest.
    pub fn settling(mut self, min_wait: Duration) -> ScreenshotJob {
        self.min_wait = min_wait.min(self.wait);
        self
    }

    /// Called every frame, `settled` when no analysis is running; returns the outcome once
    /// the PNG is written (or failed).
    pub fn tick(&mut self, ctx: &egui::Context, settled: bool) -> Option<Result<(), ScreenshotError>> {
        self.frames += 1;
        // As often as while an analysis runs (see `Workbench::show`), so the picture's figures are
        // what a user would see.
        ctx.request_repaint_after(Duration::from_millis(100));
        let waited = self.started.elapsed();
        let due = waited >= self.wait || (settled && waited >= self.min_wait);
        if !self.requested && self.frames >= 5 && due {
            self.requested = true;
            let (path, outcome) = (self.path.clone(), self.outcome.clone());
            ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(egui::ScreenshotCallback::new(move |image| {
                *outcome.lock().unwrap_or_else(|p| p.into_inner()) = Some(write_png(&path, &image));
            })));
        }
        self.outcome.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Writes an egui image as an 8-bit RGBA PNG (atomically).
pub fn write_png(path: &Path, image: &egui::ColorImage) -> Result<(), ScreenshotError> {
    let [w, h] = image.size;
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, w as u32, h as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_srgba_unmultiplied()).collect();
        writer.write_image_data(&rgba)?;
    }
    Ok(crate::io::write_atomic(path, &bytes)?)
}
