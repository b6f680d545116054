# The mhealthtools tapping peer: get_tapping_features (mhealthtools/get_tapping_features.R,
# unmodified from Sage-Bionetworks/mhealthtools at 4340b82) with its defaults — a depress
# threshold of 20 points, repeated outside taps removed — on each file, written beside it as
# FILE.out.csv with 17 significant digits (NA, NaN, Inf and -Inf as R prints them).
# Usage: Rscript tapping.R FILE.csv...   (columns t,x,y,buttonid)
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages({ library(magrittr) })
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
for (file in list.files(file.path(here, "mhealthtools"), pattern = "[.]R$", full.names = TRUE)) source(file)
for (path in args) {
  out <- get_tapping_features(read.csv(path, colClasses = c("numeric", "numeric", "numeric", "character")))
  for (column in names(out)) if (is.numeric(out[[column]])) out[[column]] <- sprintf("%.17g", out[[column]])
  write.csv(out, paste0(path, ".out.csv"), row.names = FALSE, quote = FALSE)
}
