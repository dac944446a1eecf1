package autodiff
