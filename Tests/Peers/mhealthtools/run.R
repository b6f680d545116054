# The mhealthtools peer: runs mhealthtools' own feature functions (mhealthtools/, unmodified from
# Sage-Bionetworks/mhealthtools at 4340b82) on one recording and prints every extracted feature
# with 17 significant digits, one row per sensor, measurement, axis, IMF and window.
# Usage: Rscript run.R LIB TASK IN_DIR OUT.csv
#   LIB     an R library holding the cran/ subsets (install.sh puts them there)
#   TASK    walk | balance | tremor | kinetic_tremor (get_<TASK>_features with its defaults)
#   IN_DIR  accelerometer.csv, gyroscope.csv, gravity.csv: columns t,x,y,z
# Also OUT.csv.outliers.csv: tag_outlier_windows(gravity, 256, 0.5), one row per window.
args <- commandArgs(trailingOnly = TRUE)
.libPaths(c(args[[1]], .libPaths()))
suppressPackageStartupMessages({ library(magrittr) })
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
for (file in list.files(file.path(here, "mhealthtools"), pattern = "[.]R$", full.names = TRUE)) source(file)
read <- function(name) read.csv(file.path(args[[3]], paste0(name, ".csv")), colClasses = "numeric")
features <- get(paste0("get_", args[[2]], "_features"))(
  accelerometer_data = read("accelerometer"), gyroscope_data = read("gyroscope"),
  gravity_data = read("gravity"))
if (!is.null(features$error)) {
  write.csv(as.data.frame(features$error), args[[4]], row.names = FALSE)
} else {
  out <- as.data.frame(features$extracted_features)
  for (column in names(out)) if (is.numeric(out[[column]])) out[[column]] <- sprintf("%.17g", out[[column]])
  write.csv(out, args[[4]], row.names = FALSE, quote = FALSE)
}
# The outlier-window tag on the windows of the EMD tasks (256 samples, half overlap).
tags <- tag_outlier_windows(read("gravity"), window_length = 256, window_overlap = 0.5)
write.csv(as.data.frame(tags), paste0(args[[4]], ".outliers.csv"), row.names = FALSE)
