//! Plots of an experiment, as SVG and PNG: success rate (with 95 % Wilson intervals) and mean
//! iterations by board size, one line per solver and swept setting, a heat map of a
//! two-parameter sweep, and the score per iteration of a sample run per solver.
//!
//! Text is drawn with a bundled font (`DejaVu Sans`), so plotting needs nothing from the system.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use thiserror::Error;

use crate::experiment::Row;
use crate::stats::wilson;

/// A plot that could not be drawn or written.
#[derive(Debug, Error)]
#[error("cannot draw {file}: {reason}")]
pub struct PlotError {
    file: String,
    reason: String,
}

/// The bundled font, registered once as "sans-serif".
fn register_font() {
    static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Text is then missing from the plots, which are still written.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

type Series = (String, Vec<(f64, f64)>);

/// The size of every plot, in pixels.
const WIDTH: u32 = 900;
const HEIGHT: u32 = 560;

/// Writes RGB `pixels` of a plot as the PNG file `path`.
fn write_png(path: &Path, pixels: &[u8]) -> Result<(), PlotError> {
    let error = |reason: String| PlotError {
        file: path.display().to_string(),
        reason,
    };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| error(e.to_string()))?;
    writer
        .write_image_data(pixels)
        .and_then(|()| writer.finish())
        .map_err(|e| error(e.to_string()))?;
    write_file(path, &bytes)
}

/// Writes a finished plot to `path`: the old file stays until the new one is whole.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), PlotError> {
    queens_io::files::write_atomically(path, bytes).map_err(|e| PlotError {
        file: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// Draws `chart` into `<dir>/<stem>.svg` and `<dir>/<stem>.png`.
macro_rules! render {
    ($written:expr, $dir:expr, $stem:expr, |$root:ident| $draw:expr) => {{
        let svg = $dir.join(format!("{}.svg", $stem));
        let png = $dir.join(format!("{}.png", $stem));
        {
            let mut text = String::new();
            {
                let $root = SVGBackend::with_string(&mut text, (WIDTH, HEIGHT)).into_drawing_area();
                $draw.map_err(|e| PlotError {
                    file: svg.display().to_string(),
                    reason: e.to_string(),
                })?;
                $root.present().map_err(|e| PlotError {
                    file: svg.display().to_string(),
                    reason: e.to_string(),
                })?;
            }
            write_file(&svg, text.as_bytes())?;
        }
        {
            let mut pixels = vec![0u8; WIDTH as usize * HEIGHT as usize * 3];
            {
                let $root =
                    BitMapBackend::with_buffer(&mut pixels, (WIDTH, HEIGHT)).into_drawing_area();
                $draw.map_err(|e| PlotError {
                    file: png.display().to_string(),
                    reason: e.to_string(),
                })?;
            }
            write_png(&png, &pixels)?;
        }
        $written.push(svg);
        $written.push(png);
    }};
}

/// Writes every plot that `rows` and `curves` support into `dir`; returns the files written.
/// `curves` holds, per solver, the (iteration, score) steps of one sample run.
pub fn write_all(dir: &Path, rows: &[Row], curves: &[Series]) -> Result<Vec<PathBuf>, PlotError> {
    register_font();
    let mut written = Vec::new();
    let sizes: BTreeSet<u32> = rows.iter().map(|r| r.n).collect();
    let unswept = rows.iter().all(|r| r.params.is_empty());
    let lines = by_size(rows, |_| Some(0.0)).len();
    if !rows.is_empty() && (unswept || sizes.len() > 1) && lines <= MOST_LINES {
        let success = by_size(rows, |r| Some(100.0 * r.success_rate));
        let intervals = by_size_intervals(rows);
        let iterations = by_size(rows, |r| r.mean_iterations);
        let single = sizes.len() == 1;
        render!(written, dir, "success-rate", |root| LineChart {
            title: "Success rate by board size, with 95 % intervals",
            x_label: "N",
            y_label: "solved (%)",
            series: &success,
            y_range: Some(0.0..100.0),
            points_only: single,
            error_bars: Some(&intervals),
        }
        .draw(&root));
        render!(written, dir, "mean-iterations", |root| LineChart {
            title: "Mean iterations of successful runs",
            x_label: "N",
            y_label: "iterations",
            series: &iterations,
            y_range: None,
            points_only: single,
            error_bars: None,
        }
        .draw(&root));
    }
    let names: BTreeSet<&String> = rows.iter().flat_map(|r| r.params.keys()).collect();
    if names.len() == 2 {
        let names: Vec<&String> = names.into_iter().collect();
        let first = &rows[0];
        let cell: Vec<&Row> = rows
            .iter()
            .filter(|r| r.solver == first.solver && r.n == first.n)
            .collect();
        let title = format!("{}, N = {}: solved (%)", first.solver, first.n);
        render!(written, dir, "heat-map", |root| heat_map(
            &root, &title, names[0], names[1], &cell
        ));
    }
    if curves.iter().any(|(_, points)| !points.is_empty()) {
        render!(written, dir, "score-per-iteration", |root| LineChart {
            title: "Score per iteration, one run per solver",
            x_label: "iteration",
            y_label: "score",
            series: curves,
            y_range: None,
            points_only: false,
            error_bars: None,
        }
        .draw(&root));
    }
    Ok(written)
}

/// Line colours, the page's: no red (red means "under attack" on the boards), each at least
/// 4.5:1 on white.
pub const LINE_COLOURS: [RGBColor; 8] = [
    RGBColor(0x1f, 0x4e, 0x9c),
    RGBColor(0xa3, 0x52, 0x00),
    RGBColor(0x1e, 0x7b, 0x4a),
    RGBColor(0x7d, 0x3c, 0x98),
    RGBColor(0x0e, 0x7a, 0x86),
    RGBColor(0xa6, 0x32, 0x6f),
    RGBColor(0x6e, 0x4b, 0x3a),
    RGBColor(0x55, 0x55, 0x55),
];

/// Line colour number `index`.
fn line_colour(index: usize) -> RGBColor {
    LINE_COLOURS[index % LINE_COLOURS.len()]
}

/// The most lines a by-size plot draws; a sweep of more settings is left to the table.
const MOST_LINES: usize = 12;

/// A row's line: its solver, and its swept settings if any (`optimized-hill-climbing q=3`).
fn line_name(row: &Row) -> String {
    let mut name = row.solver.clone();
    for (param, value) in &row.params {
        let _ = write!(name, " {param}={value}");
    }
    name
}

/// Per solver and setting, (N, value) points in order of N.
fn by_size(rows: &[Row], value: impl Fn(&Row) -> Option<f64>) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for row in rows {
        let Some(v) = value(row) else { continue };
        let name = line_name(row);
        match series.iter_mut().find(|(line, _)| *line == name) {
            Some((_, points)) => points.push((f64::from(row.n), v)),
            None => series.push((name, vec![(f64::from(row.n), v)])),
        }
    }
    series
}

/// The 95 % intervals of the success rates, in percent, in the order of [`by_size`]'s points:
/// per line, (N, low, high).
fn by_size_intervals(rows: &[Row]) -> Vec<Vec<(f64, f64, f64)>> {
    let mut names: Vec<String> = Vec::new();
    let mut intervals: Vec<Vec<(f64, f64, f64)>> = Vec::new();
    for row in rows {
        let name = line_name(row);
        let at = names
            .iter()
            .position(|line| *line == name)
            .unwrap_or_else(|| {
                names.push(name);
                intervals.push(Vec::new());
                names.len() - 1
            });
        let (low, high) = wilson(row.solved, row.runs).unwrap_or((0.0, 0.0));
        intervals[at].push((f64::from(row.n), 100.0 * low, 100.0 * high));
    }
    intervals
}

fn span(values: impl Iterator<Item = f64> + Clone) -> Range<f64> {
    let low = values.clone().fold(f64::INFINITY, f64::min);
    let high = values.fold(f64::NEG_INFINITY, f64::max);
    if !low.is_finite() {
        return 0.0..1.0;
    }
    let pad = ((high - low) * 0.05).max(0.5);
    (low - pad)..(high + pad)
}

/// Per line, its points' 95 % intervals: (x, low, high).
type ErrorBars = [Vec<(f64, f64, f64)>];

/// A line chart: a line per series, dots where the points are few, optional error bars.
struct LineChart<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    series: &'a [Series],
    /// The y axis, or the data's span.
    y_range: Option<Range<f64>>,
    /// Dots always (a single N: lines would be points).
    points_only: bool,
    error_bars: Option<&'a ErrorBars>,
}

impl LineChart<'_> {
    fn draw<DB: DrawingBackend>(
        self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let LineChart {
            title,
            x_label,
            y_label,
            series,
            y_range,
            points_only,
            error_bars,
        } = self;
        root.fill(&WHITE)?;
        let xs = span(
            series
                .iter()
                .flat_map(|(_, p)| p.iter().map(|&(x, _)| x))
                .collect::<Vec<_>>()
                .into_iter(),
        );
        let ys = y_range.unwrap_or_else(|| {
            span(
                series
                    .iter()
                    .flat_map(|(_, p)| p.iter().map(|&(_, y)| y))
                    .collect::<Vec<_>>()
                    .into_iter(),
            )
        });
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(42)
            .y_label_area_size(64)
            .build_cartesian_2d(xs, ys)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .label_style(("sans-serif", 14))
            .draw()?;
        for (index, (name, points)) in series.iter().enumerate() {
            let color = line_colour(index).to_rgba();
            // Thick strokes on a dense zig-zag draw long miter spikes: dense curves get thin ones.
            let style = color.stroke_width(if points.len() < 40 { 2 } else { 1 });
            let drawn = chart.draw_series(LineSeries::new(points.iter().copied(), style))?;
            drawn
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
            if points_only || points.len() < 40 {
                chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
            }
            if let Some(bars) = error_bars.and_then(|bars| bars.get(index)) {
                // Each line's bars a few pixels to the side of the others', so that overlapping
                // intervals at one N stay apart; capped at both ends.
                let lines = series.len() as i32;
                let dodge = (index as i32 * 2 - (lines - 1)) * if lines <= 3 { 3 } else { 1 };
                let thin = color.stroke_width(1);
                let area = chart.plotting_area();
                for &(x, low, high) in bars {
                    let (px, bottom) = area.map_coordinate(&(x, low));
                    let (_, top) = area.map_coordinate(&(x, high));
                    let px = px + dodge;
                    for path in [
                        vec![(px, bottom), (px, top)],
                        vec![(px - 3, bottom), (px + 3, bottom)],
                        vec![(px - 3, top), (px + 3, top)],
                    ] {
                        root.draw(&PathElement::new(path, thin))?;
                    }
                }
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font(("sans-serif", 13))
            .draw()?;
        root.present()
    }
}

fn heat_map<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_name: &str,
    y_name: &str,
    rows: &[&Row],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let values = |name: &str| -> Vec<f64> {
        let mut v: Vec<f64> = rows
            .iter()
            .filter_map(|r| r.params.get(name).map(|v| v.value))
            .collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let (xs, ys) = (values(x_name), values(y_name));
    // Cell i spans i − 0.5 .. i + 0.5, so that each label sits under the middle of its cell.
    let label = |values: &[f64], at: f64| {
        let index = at.round();
        if (at - index).abs() < 1e-6 && index >= 0.0 {
            values
                .get(index as usize)
                .map_or_else(String::new, f64::to_string)
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(-0.5..xs.len() as f64 - 0.5, -0.5..ys.len() as f64 - 0.5)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_name)
        .y_desc(y_name)
        .x_labels(2 * xs.len() + 1)
        .y_labels(2 * ys.len() + 1)
        .x_label_formatter(&|at| label(&xs, *at))
        .y_label_formatter(&|at| label(&ys, *at))
        .label_style(("sans-serif", 14))
        .draw()?;
    for row in rows {
        let (Some(x), Some(y)) = (row.params.get(x_name), row.params.get(y_name)) else {
            continue;
        };
        // The values are copies of the sweep's own: the same bits.
        let i = xs
            .iter()
            .position(|v| v.to_bits() == x.value.to_bits())
            .unwrap_or(0) as f64;
        let j = ys
            .iter()
            .position(|v| v.to_bits() == y.value.to_bits())
            .unwrap_or(0) as f64;
        let rate = row.success_rate;
        // From brick red (0 %) to green (100 %).
        let color = RGBColor(
            (200.0 - 170.0 * rate) as u8,
            (60.0 + 120.0 * rate) as u8,
            (60.0 - 10.0 * rate) as u8,
        );
        chart.draw_series(std::iter::once(Rectangle::new(
            [(i - 0.5, j - 0.5), (i + 0.5, j + 0.5)],
            color.filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("{:.1} %", 100.0 * rate),
            (i - 0.15, j + 0.05),
            ("sans-serif", 16).into_font().color(&WHITE),
        )))?;
    }
    root.present()
}
